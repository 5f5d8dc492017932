// The branding splash in four resolutions (low, medium, high, extra-large); the browser picks by width.
import type { AssetManifest } from "#web/pages/page-context.ts";

const resolutions = [
  ["splash-low.png", 480],
  ["splash-medium.png", 960],
  ["splash-high.png", 1440],
  ["splash-xl.png", 1920],
] as const;

export function Splash({ assets }: { assets: AssetManifest }) {
  const available = resolutions.filter(([file]) => assets.images[file]);
  const [fallback] = available;
  if (!fallback) return null;
  return (
    <img
      className="splash"
      src={assets.images[fallback[0]]}
      srcSet={available.map(([file, width]) => `${assets.images[file]} ${width}w`).join(", ")}
      sizes="(min-width: 768px) 45vw, 100vw"
      width={960}
      height={540}
      alt=""
      decoding="async"
      fetchPriority="high"
    />
  );
}
