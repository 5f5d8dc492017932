// Messages to the user: notes with an icon and text (the kind never rests on colour alone, requirements 2.5), and the
// busy overlay. One module, so every island shares one small chunk for them.
import type { ReactNode } from "react";

export type NoteKind = "success" | "error" | "info";

const labels: Record<NoteKind, string> = { success: "Success", error: "Error", info: "Notice" };

/** Inline SVG icons: a tick in a circle, a cross in a circle, an exclamation mark in a circle. */
function NoteIcon({ kind }: { kind: NoteKind }) {
  const mark =
    kind === "success" ? (
      <path d="M6 10.5l2.5 2.5L14 7.5" />
    ) : kind === "error" ? (
      <path d="M7 7l6 6M13 7l-6 6" />
    ) : (
      <path d="M10 5.5v5.5M10 14v.5" />
    );
  return (
    <svg className="note-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="9" />
      {mark}
    </svg>
  );
}

/**
 * Errors take role="alert" so they are announced when they appear; the others are plain text inside
 * the surrounding live region (`Notes`). A note can take the focus (tabIndex -1), so that after an error it is
 * what the person reads first.
 */
export function Note({ kind, children }: { kind: NoteKind; children: ReactNode }) {
  return (
    <p className={`note note-${kind}`} role={kind === "error" ? "alert" : undefined} tabIndex={-1}>
      <NoteIcon kind={kind} />
      <span className="visually-hidden">{labels[kind]}: </span>
      <span>{children}</span>
    </p>
  );
}

/** A live region that is always in the page, so messages added later are announced. */
export function Notes({ children }: { children?: ReactNode }) {
  return (
    <div className="notes" aria-live="polite">
      {children}
    </div>
  );
}

/** The overlay shown over a form while its request runs ("Authenticating...", requirements 2.2). */
export function BusyOverlay({ text }: { text: string }) {
  return (
    <div className="busy-overlay" role="status">
      <span aria-busy="true">{text}</span>
    </div>
  );
}
