// The branding splash in four resolutions (low, medium, high, extra-large), an illustration drawn at build time
// (scripts/images/splash-svg.ts). It shows beside the login form from 1024 px; narrower it steps aside, and no
// image is fetched: the picture's only source is for wide screens, its fallback an empty data image.
import type { AssetManifest } from "#web/page-context.ts";

const resolutions = [
  ["splash-low.jpg", 480],
  ["splash-medium.jpg", 960],
  ["splash-high.jpg", 1440],
  ["splash-xl.jpg", 1920],
] as const;

/** The smallest transparent GIF: what a phone's <img> holds, so it requests nothing. */
const EMPTY_IMAGE = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

export function Splash({ assets }: { assets: AssetManifest }) {
  const available = resolutions.filter(([file]) => assets.images[file]);
  if (available.length === 0) return null;
  return (
    <picture className="splash-picture">
      <source
        media="(min-width: 1024px)"
        srcSet={available.map(([file, width]) => `${assets.images[file]} ${width}w`).join(", ")}
        sizes="(min-width: 1200px) 50vw, 45vw"
      />
      <img className="splash" src={EMPTY_IMAGE} width={960} height={540} alt="" decoding="async" />
    </picture>
  );
}
