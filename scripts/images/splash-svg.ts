// The login splash, drawn in code: invoices on their way to being paid (an invoice with a paid stamp, a payment card,
// coins, a globe for wires, a report) in the brand's colours. No text, so it renders the same without fonts.
import { brandColours, logoDot, logoParts } from "#web/brand.ts";

const { primary, secondary, tertiary } = brandColours;
const gold = "#f2c14e";
const goldEdge = "#c58f22";
const paid = "#1a7f37";
const paper = "#ffffff";
const ink = "#d8ccd3";
const inkDark = "#b9a6b1";

/** The splash's drawing size; its four PNGs are this picture at 480, 960, 1440 and 1920 pixels wide (16:9). */
export const SPLASH_WIDTH = 1600;
export const SPLASH_HEIGHT = 900;

const bar = (x: number, y: number, width: number, fill = ink, height = 12) =>
  `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${height / 2}" fill="${fill}"/>`;

/** A four-pointed sparkle. */
const sparkle = (x: number, y: number, size: number, opacity: number) =>
  `<path d="M${x} ${y - size}Q${x} ${y} ${x + size} ${y}Q${x} ${y} ${x} ${y + size}Q${x} ${y} ${x - size} ${y}Q${x} ${y} ${x} ${y - size}Z" fill="#fff" opacity="${opacity}"/>`;

/** The invoice in front: header band with the logo, addresses, line items, a total, and the paid stamp. */
function invoice(): string {
  const x = 600;
  const y = 175;
  const items = [0, 1, 2, 3]
    .map((row) => {
      const top = y + 250 + row * 46;
      return [
        bar(x + 40, top, [150, 190, 120, 170][row] ?? 150),
        bar(x + 300, top, 60, inkDark),
        `<line x1="${x + 40}" y1="${top + 30}" x2="${x + 360}" y2="${top + 30}" stroke="#eee4e9" stroke-width="2"/>`,
      ].join("");
    })
    .join("");
  const logo = logoParts
    .map(
      ({ part, d }) => `<path d="${d}" fill="${part === "arrow" ? primary : part === "outer" ? "#fff" : "#f4c7da"}"/>`,
    )
    .join("");
  return `
  <g filter="url(#shadow)">
    <rect x="${x - 50}" y="${y + 10}" width="400" height="540" rx="22" fill="#f3e6ec" transform="rotate(-9 ${x + 150} ${y + 280})"/>
    <rect x="${x}" y="${y}" width="400" height="540" rx="22" fill="${paper}"/>
  </g>
  <path d="M${x} ${y + 22}a22 22 0 0 1 22-22h356a22 22 0 0 1 22 22v78H${x}Z" fill="${tertiary}"/>
  <g transform="translate(${x + 34} ${y + 22}) scale(1.15)">${logo}<circle cx="${logoDot.cx}" cy="${logoDot.cy}" r="${logoDot.r}" fill="${gold}"/></g>
  ${bar(x + 110, y + 36, 150, "#ffffff", 14)}${bar(x + 110, y + 62, 90, "#bfe3f2", 10)}
  ${bar(x + 40, y + 130, 120, inkDark)}${bar(x + 40, y + 154, 170)}${bar(x + 40, y + 176, 140)}
  ${bar(x + 250, y + 130, 110, inkDark)}${bar(x + 270, y + 154, 90)}
  <rect x="${x + 24}" y="${y + 222}" width="352" height="4" rx="2" fill="${primary}" opacity=".85"/>
  ${items}
  <rect x="${x + 200}" y="${y + 446}" width="176" height="48" rx="12" fill="${primary}"/>
  ${bar(x + 216, y + 464, 70, "#f4c7da")}${bar(x + 300, y + 462, 60, "#ffffff", 14)}
  <g transform="rotate(-14 ${x + 110} ${y + 470})" opacity=".92">
    <circle cx="${x + 110}" cy="${y + 470}" r="56" fill="none" stroke="${paid}" stroke-width="7"/>
    <circle cx="${x + 110}" cy="${y + 470}" r="44" fill="none" stroke="${paid}" stroke-width="2.5" stroke-dasharray="7 6"/>
    <path d="M${x + 88} ${y + 472}l15 15 30-32" fill="none" stroke="${paid}" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>
  </g>`;
}

/** The payment card, tilted, overlapping the invoice's lower right. */
function card(): string {
  const x = 905;
  const y = 455;
  const dots = [0, 1, 2, 3]
    .map((group) =>
      [0, 1, 2, 3]
        .map(
          (dot) => `<circle cx="${x + 40 + group * 72 + dot * 13}" cy="${y + 150}" r="4.5" fill="#fff" opacity=".85"/>`,
        )
        .join(""),
    )
    .join("");
  return `
  <g transform="rotate(9 ${x + 180} ${y + 112})" filter="url(#shadow)">
    <rect x="${x}" y="${y}" width="360" height="224" rx="24" fill="url(#cardFill)"/>
    <path d="M${x} ${y + 150}C${x + 120} ${y + 110} ${x + 240} ${y + 210} ${x + 360} ${y + 160}V${y + 200}a24 24 0 0 1-24 24H${x + 24}a24 24 0 0 1-24-24Z" fill="#fff" opacity=".08"/>
    <rect x="${x + 36}" y="${y + 58}" width="56" height="42" rx="8" fill="${gold}"/>
    <path d="M${x + 36} ${y + 79}h56M${x + 64} ${y + 58}v42M${x + 50} ${y + 58}v42M${x + 78} ${y + 58}v42" stroke="${goldEdge}" stroke-width="2"/>
    <path d="M${x + 300} ${y + 62}a22 22 0 0 1 0 34M${x + 312} ${y + 52}a36 36 0 0 1 0 54M${x + 324} ${y + 42}a50 50 0 0 1 0 74" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" opacity=".8"/>
    ${dots}
    ${bar(x + 40, y + 180, 120, "#ffffff", 10)}${bar(x + 260, y + 180, 60, "#ffffff", 10)}
  </g>`;
}

/** A stack of coins beside the invoice, the top one marked with a currency sign. */
function coins(): string {
  const x = 520;
  const base = 690;
  const layers = [0, 1, 2, 3]
    .map((level) => {
      const cy = base - level * 22;
      return `<ellipse cx="${x}" cy="${cy + 12}" rx="70" ry="24" fill="${goldEdge}"/><ellipse cx="${x}" cy="${cy}" rx="70" ry="24" fill="${gold}"/>`;
    })
    .join("");
  const top = base - 3 * 22;
  return `
  <g filter="url(#shadow)">${layers}</g>
  <ellipse cx="${x}" cy="${top}" rx="50" ry="16" fill="none" stroke="${goldEdge}" stroke-width="3"/>
  <path d="M${x + 14} ${top - 8}c-4-5-28-6-28 1s28 4 28 11-24 7-28 1M${x} ${top - 15}v30" fill="none" stroke="${goldEdge}" stroke-width="4" stroke-linecap="round"/>`;
}

/** A globe for wires abroad, with the route a payment takes to the card. */
function globe(): string {
  const cx = 420;
  const cy = 300;
  const r = 92;
  return `
  <path d="M${cx + 60} ${cy - 70}C${cx + 260} ${cy - 260} ${cx + 820} ${cy - 170} ${cx + 830} ${cy + 110}" fill="none" stroke="#fff" stroke-width="4" stroke-dasharray="2 16" stroke-linecap="round" opacity=".7"/>
  <path d="M${cx + 812} ${cy + 96}l18 22 16-26" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" opacity=".7"/>
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="${tertiary}"/>
  <clipPath id="earth"><circle cx="${cx}" cy="${cy}" r="${r}"/></clipPath>
  <g clip-path="url(#earth)" fill="#7cc4e4">
    <path d="M${cx - 95} ${cy - 60}c30-20 60-10 70 10s-10 40 10 55-10 45-35 40-30-30-50-35Z"/>
    <path d="M${cx + 5} ${cy - 80}c25-10 55 0 70 20s30 35 10 55-45 5-55 25-5 50-30 45-15-45-25-60 10-40 0-55Z"/>
  </g>
  <ellipse cx="${cx}" cy="${cy}" rx="${r * 0.45}" ry="${r}" fill="none" stroke="#fff" stroke-width="3" opacity=".55"/>
  <path d="M${cx - r} ${cy}h${r * 2}M${cx - r * 0.87} ${cy - r * 0.5}h${r * 1.74}M${cx - r * 0.87} ${cy + r * 0.5}h${r * 1.74}" stroke="#fff" stroke-width="3" opacity=".55"/>
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#fff" stroke-width="4" opacity=".8"/>`;
}

/** A small report card: bars and a rising line. */
function report(): string {
  const x = 1075;
  const y = 165;
  const heights = [50, 80, 64, 104];
  const bars = heights
    .map(
      (height, i) =>
        `<rect x="${x + 32 + i * 42}" y="${y + 150 - height}" width="26" height="${height}" rx="6" fill="${i === 3 ? secondary : tertiary}"/>`,
    )
    .join("");
  return `
  <g filter="url(#shadow)"><rect x="${x}" y="${y}" width="230" height="180" rx="20" fill="${paper}"/></g>
  ${bar(x + 30, y + 26, 90, inkDark)}
  ${bars}
  <path d="M${x + 45} ${y + 86}L${x + 87} ${y + 60}L${x + 129} ${y + 74}L${x + 171} ${y + 36}" fill="none" stroke="${primary}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="${x + 171}" cy="${y + 36}" r="8" fill="${primary}"/>`;
}

export function splashSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SPLASH_WIDTH}" height="${SPLASH_HEIGHT}" viewBox="0 0 ${SPLASH_WIDTH} ${SPLASH_HEIGHT}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#3b1529"/><stop offset=".55" stop-color="${primary}"/><stop offset="1" stop-color="${secondary}"/>
    </linearGradient>
    <radialGradient id="glow" cx=".78" cy=".2" r=".6">
      <stop offset="0" stop-color="${tertiary}" stop-opacity=".55"/><stop offset="1" stop-color="${tertiary}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="cardFill" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${secondary}"/><stop offset="1" stop-color="#5e0f2a"/>
    </linearGradient>
    <pattern id="dots" width="32" height="32" patternUnits="userSpaceOnUse">
      <circle cx="4" cy="4" r="2" fill="#fff" opacity=".09"/>
    </pattern>
    <filter id="shadow" x="-20%" y="-20%" width="140%" height="150%">
      <feDropShadow dx="0" dy="18" stdDeviation="18" flood-color="#12050b" flood-opacity=".45"/>
    </filter>
  </defs>
  <rect width="${SPLASH_WIDTH}" height="${SPLASH_HEIGHT}" fill="url(#sky)"/>
  <rect width="${SPLASH_WIDTH}" height="${SPLASH_HEIGHT}" fill="url(#glow)"/>
  <rect width="${SPLASH_WIDTH}" height="${SPLASH_HEIGHT}" fill="url(#dots)"/>
  <circle cx="180" cy="800" r="260" fill="#fff" opacity=".04"/>
  <circle cx="1460" cy="120" r="200" fill="#fff" opacity=".05"/>
  <path d="M0 760C300 690 520 860 820 800S1340 700 1600 780V900H0Z" fill="#000" opacity=".14"/>
  ${globe()}
  ${report()}
  ${invoice()}
  ${coins()}
  ${card()}
  ${sparkle(330, 560, 18, 0.7)}${sparkle(1330, 400, 14, 0.6)}${sparkle(1010, 120, 12, 0.55)}${sparkle(700, 120, 10, 0.5)}${sparkle(1390, 690, 20, 0.45)}
</svg>`;
}
