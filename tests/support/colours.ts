// Colours as the browser computes them, painted one over another, and WCAG's contrast between them: for the browser
// tests that measure what the eye sees from computed styles.
import type { Locator, Page } from "playwright-core";

type Clip = { x: number; y: number; width: number; height: number };

export type Rgba = [number, number, number, number];

/**
 * A computed colour: `rgb()` / `rgba()` (0 to 255), or `color(srgb …)` (0 to 1), which Chromium gives for a
 * `color-mix()`. Undefined for anything else (`none`, a keyword).
 */
export function parseColour(text: string): Rgba | undefined {
  const rgb = /rgba?\(([^)]+)\)/.exec(text);
  const srgb = /color\(srgb ([^)]+)\)/.exec(text);
  const parts = (rgb?.[1] ?? srgb?.[1])
    ?.split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  if (!parts || parts.length < 3) return undefined;
  const [r = 0, g = 0, b = 0, a = 1] = parts;
  return rgb ? [r, g, b, a] : [r * 255, g * 255, b * 255, a];
}

/** What shows of colours painted one over another, the bottom one first (taken as opaque). */
export function composite(layers: readonly Rgba[]): Rgba {
  let [r, g, b] = layers[0] ?? [255, 255, 255, 1];
  for (const [lr, lg, lb, a] of layers.slice(1)) {
    r = lr * a + r * (1 - a);
    g = lg * a + g * (1 - a);
    b = lb * a + b * (1 - a);
  }
  return [r, g, b, 1];
}

/** WCAG's relative luminance of an sRGB colour (its alpha ignored). */
function luminance([r, g, b]: Rgba): number {
  const [lr, lg, lb] = [r, g, b].map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}

/** WCAG's contrast ratio of two opaque colours, 1 to 21. */
export function contrast(one: Rgba, other: Rgba): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The backgrounds behind an element, from the page's own down to its nearest: the layers it is painted on. */
export async function backgroundsUnder(locator: Locator): Promise<Rgba[]> {
  const colours = await locator.evaluate((element) => {
    const found: string[] = [];
    for (let node = element.parentElement; node; node = node.parentElement) {
      found.push(getComputedStyle(node).backgroundColor);
    }
    return found;
  });
  const layers = colours.map(parseColour).filter((colour): colour is Rgba => colour !== undefined && colour[3] > 0);
  const opaque = layers.findIndex((colour) => colour[3] === 1);
  return (opaque < 0 ? layers : layers.slice(0, opaque + 1)).reverse();
}

/**
 * The focused element's ring as it is drawn: its outline when it has one, else the widest ring of its box-shadow
 * (a shadow with no offset or blur and a spread). Undefined when it shows none.
 */
export async function focusRing(locator: Locator): Promise<Rgba | undefined> {
  const drawn = await locator.evaluate((element) => {
    const style = getComputedStyle(element);
    if (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) return [style.outlineColor];
    // "rgb(31, 123, 163) 0px 0px 0px 2px, …": each shadow's colour, then its offsets, blur and spread.
    return style.boxShadow
      .split(/,(?![^(]*\))/)
      .map((shadow) => {
        const colour = /(rgba?|color)\([^)]*\)/.exec(shadow)?.[0] ?? "";
        const [x, y, blur, spread] = shadow.replace(colour, "").trim().split(/\s+/).map(Number.parseFloat);
        return { colour, ring: x === 0 && y === 0 && blur === 0 && (spread ?? 0) > 0, spread: spread ?? 0 };
      })
      .filter((shadow) => shadow.ring)
      .sort((a, b) => b.spread - a.spread)
      .map((shadow) => shadow.colour);
  });
  const ring = drawn.map(parseColour).find((colour) => colour !== undefined && colour[3] > 0);
  return ring;
}

/**
 * Every colour painted in a part of the page, as "r,g,b" with how many pixels show it: a screenshot of that part, decoded
 * by the browser in a blank page of its own (the portal's pages admit no image from a data: address).
 */
export async function paintedColours(page: Page, clip: Clip): Promise<Map<string, number>> {
  const png = (await page.screenshot({ clip })).toString("base64");
  const blank = await page.context().newPage();
  try {
    const counted = await blank.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [image.width, image.height];
      const paint = canvas.getContext("2d", { willReadFrequently: true });
      if (!paint) return [];
      paint.drawImage(image, 0, 0);
      const pixels = paint.getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = new Map<string, number>();
      for (let at = 0; at < pixels.length; at += 4) {
        const key = `${pixels[at]},${pixels[at + 1]},${pixels[at + 2]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return [...counts];
    }, png);
    return new Map(counted);
  } finally {
    await blank.close();
  }
}
