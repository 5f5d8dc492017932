// The portal's logo, embedded in the page as SVG (web/brand.ts): coloured by the stylesheet, so dark headers get a
// light shield (portal.css, "--logo-*").
import { logoDot, logoParts } from "#web/brand.ts";

/** Hidden from assistive technology: it stands beside the brand's name, which names the link on its own. */
export function Logo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" className="logo">
      {logoParts.map(({ part, d }) => (
        <path key={part} d={d} className={`logo-${part}`} />
      ))}
      <circle cx={logoDot.cx} cy={logoDot.cy} r={logoDot.r} className="logo-dot" />
    </svg>
  );
}
