// The portal's logo, embedded in the page as SVG: a shield with a forward arrow, in the theme's colours.
/** Hidden from assistive technology: it stands beside the brand's name, which names the link on its own. */
export function Logo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" className="logo">
      <path d="M24 3 42 10v13c0 11-7.6 19.6-18 22C13.6 42.6 6 34 6 23V10Z" fill="#522239" />
      <path d="M24 8.5 37 13.6v9.6c0 8.3-5.5 14.9-13 17V8.5Z" fill="#981239" />
      <path d="M14 25h15.5l-5-5 2.8-2.8L37.1 27l-9.8 9.8-2.8-2.8 5-5H14Z" fill="#fff" />
      <circle cx="14" cy="27" r="3" fill="#1F7BA3" />
    </svg>
  );
}
