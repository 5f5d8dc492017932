// The logo's shapes and colours, once: the header's inline logo, the favicon and the app icons are all drawn from it.

/** requirements 9's theme colours. */
export const brandColours = { primary: "#522239", secondary: "#981239", tertiary: "#1f7ba3" } as const;

/** A shield with a forward arrow, on a 48×48 grid; each part named for its colour role. */
export const logoParts = [
  { part: "outer", d: "M24 3 42 10v13c0 11-7.6 19.6-18 22C13.6 42.6 6 34 6 23V10Z" },
  { part: "inner", d: "M24 8.5 37 13.6v9.6c0 8.3-5.5 14.9-13 17V8.5Z" },
  { part: "arrow", d: "M14 25h15.5l-5-5 2.8-2.8L37.1 27l-9.8 9.8-2.8-2.8 5-5H14Z" },
] as const;
export const logoDot = { cx: 14, cy: 27, r: 3 } as const;

/** The parts' colours on a light background, and on a dark one (where the primary shield would all but vanish). */
export const logoColours = {
  light: { outer: brandColours.primary, inner: brandColours.secondary, arrow: "#ffffff", dot: brandColours.tertiary },
  dark: { outer: "#f0b6cf", inner: "#d9668f", arrow: "#2a0f1d", dot: "#6cc0e6" },
} as const;

type Scheme = keyof typeof logoColours;

/**
 * The logo as a standalone SVG document, for the favicon and the app icons. `scheme` fixes its colours; without it
 * the SVG follows the system's colour scheme. `background` and `padding` (in grid units) make an app icon's tile.
 */
export function logoSvg({
  size = 48,
  scheme,
  background,
  padding = 0,
}: {
  size?: number;
  scheme?: Scheme;
  background?: string;
  padding?: number;
} = {}): string {
  const extent = 48 + padding * 2;
  const colours = logoColours[scheme ?? "light"];
  const fill = (part: keyof typeof colours) => (scheme ? ` fill="${colours[part]}"` : ` class="${part}"`);
  const style = scheme
    ? ""
    : `<style>${(["light", "dark"] as const)
        .map((each) => {
          const rules = Object.entries(logoColours[each])
            .map(([part, colour]) => `.${part}{fill:${colour}}`)
            .join("");
          return each === "light" ? rules : `@media (prefers-color-scheme: dark){${rules}}`;
        })
        .join("")}</style>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="${-padding} ${-padding} ${extent} ${extent}">`,
    style,
    background
      ? `<rect x="${-padding}" y="${-padding}" width="${extent}" height="${extent}" fill="${background}"/>`
      : "",
    ...logoParts.map(({ part, d }) => `<path d="${d}"${fill(part)}/>`),
    `<circle cx="${logoDot.cx}" cy="${logoDot.cy}" r="${logoDot.r}"${fill("dot")}/>`,
    "</svg>",
  ].join("");
}
