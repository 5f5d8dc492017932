// The overlay shown over a form while its request runs ("Authenticating...", SPEC.md 2.2).
export function BusyOverlay({ text }: { text: string }) {
  return (
    <div className="busy-overlay" role="status">
      <span aria-busy="true">{text}</span>
    </div>
  );
}
