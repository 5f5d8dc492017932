// Draws the portal's images at build time, from code (never fetched): the login splash in four resolutions and the
// favicon and app icons from the logo (web/brand.ts). SVG is rendered with resvg (WebAssembly, no binaries): the icons
// to PNG, the splash to JPEG (jpeg-js), a third of the PNG's bytes for a picture that fills half a wide screen.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import jpeg from "jpeg-js";
import { splashSvg } from "#scripts/images/splash-svg.ts";
import { brandColours, logoSvg } from "#web/brand.ts";

/** requirements 1: the splash in four resolutions (web/components/splash.tsx picks one by width). */
export const splashSizes = { low: 480, medium: 960, high: 1440, xl: 1920 } as const;

let ready: Promise<void> | undefined;
function resvgReady(): Promise<void> {
  ready ??= initWasm(readFileSync(createRequire(import.meta.url).resolve("@resvg/resvg-wasm/index_bg.wasm")));
  return ready;
}

/** Quality of the splash's JPEG: its gradients and edges show no banding or ringing at this size. */
const SPLASH_QUALITY = 82;

function render(name: string, svg: string, width: number): Buffer {
  const image = new Resvg(svg, { fitTo: { mode: "width", value: width } }).render();
  if (!name.endsWith(".jpg")) return Buffer.from(image.asPng());
  const { pixels, width: w, height } = image;
  return jpeg.encode({ data: Buffer.from(pixels), width: w, height }, SPLASH_QUALITY).data;
}

/** Each image's SVG and the width it is rendered at (0: kept as SVG). */
function sources(): [string, string, number][] {
  const splash = splashSvg();
  const icon = logoSvg({ scheme: "light" });
  // App icons sit on a light tile with a margin, as launchers and home screens show them.
  const tile = logoSvg({ scheme: "light", background: "#ffffff", padding: 6 });
  return [
    ...Object.entries(splashSizes).map(([name, width]): [string, string, number] => [
      `splash-${name}.jpg`,
      splash,
      width,
    ]),
    // The favicon follows the system's colour scheme.
    ["favicon.svg", logoSvg(), 0],
    ["icon-32.png", icon, 32],
    ["apple-touch-icon.png", tile, 180],
    ["icon-192.png", tile, 192],
    ["icon-512.png", tile, 512],
  ];
}

/** Rendering takes seconds; the same drawings are kept in node_modules/.cache, so a rebuild in development is quick. */
const cacheRoot = new URL("../../node_modules/.cache/portal-images/", import.meta.url).pathname;

/** File name → contents, as the build copies them into dist/assets. */
export async function makeImages(): Promise<Map<string, Buffer>> {
  const all = sources();
  const key = createHash("sha256").update(JSON.stringify(all)).digest("hex").slice(0, 16);
  const cache = `${cacheRoot}${key}/`;
  const images = new Map<string, Buffer>();
  if (existsSync(cache) && readdirSync(cache).length === all.length) {
    for (const [name] of all) images.set(name, readFileSync(`${cache}${name}`));
    return images;
  }
  await resvgReady();
  for (const [name, svg, width] of all) images.set(name, width === 0 ? Buffer.from(svg) : render(name, svg, width));
  mkdirSync(cache, { recursive: true });
  for (const [name, data] of images) writeFileSync(`${cache}${name}`, data);
  return images;
}

/** The web app manifest, naming the icons by their built URLs. */
export function webManifest(name: string, urls: Record<string, string>): string {
  const icon = (file: string, size: number) => ({ src: urls[file], sizes: `${size}x${size}`, type: "image/png" });
  return JSON.stringify({
    name,
    short_name: name,
    start_url: "/",
    display: "browser",
    theme_color: brandColours.primary,
    background_color: "#ffffff",
    icons: [icon("icon-192.png", 192), icon("icon-512.png", 512)],
  });
}
