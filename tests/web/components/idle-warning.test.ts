// The idle warning's rules without JavaScript: hidden until the delay the server writes, then shown, motion or not; and
// without a delay (a page that shows it by its script alone), hidden until the script shows it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { idleWarningStyle } from "#web/components/idle-warning.tsx";

describe("the idle warning's style", () => {
  const css = idleWarningStyle("1740");

  it("hides the warning, then shows it once the server's delay has run", () => {
    assert.match(css, /\.idle-warning\{[^}]*visibility:hidden\}/);
    assert.match(css, /animation:idle-warning 1ms step-start 1740s forwards/);
    assert.match(css, /@keyframes idle-warning\{to\{visibility:visible\}\}/);
  });

  it("keeps the same delay under reduced motion, where the stylesheet would set every delay to -1ms", () => {
    assert.match(
      css,
      /@media \(prefers-reduced-motion:reduce\)\{div\.idle-warning\{animation-delay:1740s!important\}\}/,
    );
  });

  it("writes no other delay than the one it is given", () => {
    assert.deepEqual(css.match(/\d+s\b/g), ["1740s", "1740s"]);
  });

  it("without a delay, keeps the warning hidden and its look, with no animation to show it", () => {
    const scripted = idleWarningStyle();
    assert.match(scripted, /\.idle-warning\{[^}]*visibility:hidden\}/);
    assert.doesNotMatch(scripted, /animation|@keyframes/);
    assert.match(scripted, /\.idle-warning article\{[^}]*border-left-width:\.375rem/, "the same look as on any page");
  });
});
