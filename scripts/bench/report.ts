// The bench's table: one row per figure, with what was measured on each side, the result, its goal and the verdict.
import type { Side } from "#scripts/bench/load.ts";

export type Row = {
  name: string;
  subject: string;
  reference: string;
  result: string;
  goal: string;
  /** Whether the goal is met; undefined for a row with no goal, there to be read. */
  met: boolean | undefined;
};

export const describeSide = ({ label, requestsPerSecond, cpuMicrosPerRequest }: Side) =>
  `${label}: ${Math.round(requestsPerSecond).toLocaleString("en")} req/s, ${Math.round(cpuMicrosPerRequest)} µs CPU/req`;

export type Measured = "throughput" | "cpu";
const unit: Record<Measured, string> = { throughput: "req/s", cpu: "CPU/req" };

/** A ratio and its bounds: at least `atLeast`, at most `atMost`; a row with neither is there to be read, not met. */
export function ratioRow(
  name: string,
  [subject, reference]: [Side, Side],
  measure: Measured,
  goal: { atLeast?: number; atMost?: number },
  /** Said after the subject's figures (e.g. what a difference between the sides comes to). */
  note?: string,
): Row {
  const ratio =
    measure === "throughput"
      ? subject.requestsPerSecond / reference.requestsPerSecond
      : subject.cpuMicrosPerRequest / reference.cpuMicrosPerRequest;
  const { atLeast, atMost } = goal;
  return {
    name,
    subject: `${describeSide(subject)}${note ? `; ${note}` : ""}`,
    reference: describeSide(reference),
    result: `${ratio.toFixed(2)} (${unit[measure]})`,
    goal:
      atLeast !== undefined
        ? `≥ ${atLeast.toFixed(2)}`
        : atMost !== undefined
          ? `≤ ${atMost.toFixed(2)}`
          : "none (for reading)",
    met:
      atLeast === undefined && atMost === undefined
        ? undefined
        : (atLeast === undefined || ratio >= atLeast) && (atMost === undefined || ratio <= atMost),
  };
}

export function markdownTable(rows: Row[]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  return [
    "| Benchmark | Subject | Reference | Result | Goal | Met |",
    "|---|---|---|---|---|---|",
    ...rows
      .map((row) =>
        [
          row.name,
          row.subject,
          row.reference,
          row.result,
          row.goal,
          row.met === undefined ? "—" : row.met ? "yes" : "**no**",
        ]
          .map(cell)
          .join(" | "),
      )
      .map((line) => `| ${line} |`),
  ].join("\n");
}
