// A cooldown with a whole-seconds countdown, for "Send Again" (requirements 4.2: disabled 20 s after each generate).
import { useCallback, useEffect, useState } from "react";

/** `start()` counts the whole duration; `start(ms)` what is left of one begun earlier (the server says how much). */
export function useCooldown(durationMs: number): { secondsLeft: number; start: (ms?: number) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(0);

  useEffect(() => {
    if (until === 0) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Wake at each whole-second boundary of the time left, so the label and the end are on time
    // without a fast interval.
    const tick = () => {
      const time = Date.now();
      setNow(time);
      const left = until - time;
      if (left > 0) timer = setTimeout(tick, left % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [until]);

  const start = useCallback(
    (ms = durationMs) => {
      const time = Date.now();
      setNow(time);
      setUntil(time + ms);
    },
    [durationMs],
  );

  return { secondsLeft: Math.ceil(Math.max(0, until - now) / 1000), start };
}
