// The logo, drawn once for the header, the favicon and the app icons, in requirements 9's theme colours.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brandColours, logoColours, logoSvg } from "#web/brand.ts";

const count = (svg: string, pattern: RegExp) => svg.match(pattern)?.length ?? 0;

describe("the brand", () => {
  it("has requirements 9's theme colours", () => {
    assert.deepEqual(
      Object.values(brandColours).map((colour) => colour.toUpperCase()),
      ["#522239", "#981239", "#1F7BA3"],
    );
    assert.deepEqual(logoColours.light, {
      outer: brandColours.primary,
      inner: brandColours.secondary,
      arrow: "#ffffff",
      dot: brandColours.tertiary,
    });
  });
});

describe("the logo as an SVG document", () => {
  it("is 48 units square by default, with three shapes and a dot", () => {
    const svg = logoSvg();
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="48" height="48" viewBox="0 0 48 48">/);
    assert.match(svg, /<\/svg>$/);
    assert.equal(count(svg, /<path /g), 3);
    assert.equal(count(svg, /<circle /g), 1);
    assert.equal(count(svg, /<rect /g), 0);
  });

  it("follows the system's colour scheme when none is fixed", () => {
    const svg = logoSvg();
    assert.equal(count(svg, / fill="/g), 0);
    assert.match(svg, /<path d="[^"]+" class="outer"\/>/);
    assert.match(svg, /<circle [^>]* class="dot"\/>/);
    const [light, dark] = svg.split("@media (prefers-color-scheme: dark)");
    assert.match(light ?? "", new RegExp(`\\.outer\\{fill:${logoColours.light.outer}\\}`));
    assert.match(dark ?? "", new RegExp(`\\.outer\\{fill:${logoColours.dark.outer}\\}`));
  });

  it("fills each part with a fixed scheme's colours, and carries no style", () => {
    const svg = logoSvg({ scheme: "dark" });
    assert.doesNotMatch(svg, /<style>|class="/);
    for (const colour of Object.values(logoColours.dark)) assert.match(svg, new RegExp(`fill="${colour}"`));
  });

  it("makes an app icon's tile: the size asked, the padding around the grid, the background behind the logo", () => {
    const svg = logoSvg({ size: 192, scheme: "light", background: "#ffffff", padding: 8 });
    assert.match(svg, /width="192" height="192" viewBox="-8 -8 64 64"/);
    assert.match(svg, /<rect x="-8" y="-8" width="64" height="64" fill="#ffffff"\/>/);
    assert.ok(svg.indexOf("<rect ") < svg.indexOf("<path "), "the background is drawn first");
  });
});
