import type { Finding, StateRecords } from "../../domain/state-checks.js";
import type { Snapshot } from "../../store/store.js";

const KNOWN_ROOT = new Set(["project.json", "counters.json", "tasks", "epics", "missions", "reviews", "personas"]);

/** Everything `doctor` looks at in one snapshot: records, strays, corrupt entries. */
export async function inspectState(snap: Snapshot): Promise<{ records: StateRecords; findings: Finding[] }> {
  const findings: Finding[] = [];
  const [tasks, epics, missions, reviews] = await Promise.all([
    snap.scan("tasks"),
    snap.scan("epics"),
    snap.scan("missions"),
    snap.scan("reviews"),
  ]);
  for (const p of [tasks, epics, missions, reviews].flatMap((s) => s.problems)) {
    findings.push(
      p.kind === "corrupt"
        ? {
            severity: "error",
            code: "E_CORRUPT_RECORD",
            subject: p.path,
            message: p.message,
            fix: "pantheon doctor --fix (removes it; its history stays in git log)",
            fixable: true,
          }
        : {
            severity: "warning",
            code: "W_STRAY_ENTRY",
            subject: p.path,
            message: `${p.message}; it is ignored`,
            fix: "pantheon doctor --fix (removes it)",
            fixable: true,
          },
    );
  }
  for (const name of await snap.rootEntries()) {
    if (!KNOWN_ROOT.has(name))
      findings.push({
        severity: "warning",
        code: "W_STRAY_ENTRY",
        subject: name,
        message: `${name} is not part of the state layout; it is ignored`,
        fix: "pantheon doctor --fix (removes it)",
        fixable: true,
      });
  }
  let counters: StateRecords["counters"] = null;
  try {
    counters = await snap.counters();
  } catch (e) {
    findings.push({
      severity: "error",
      code: "E_CORRUPT_RECORD",
      subject: "counters.json",
      message: (e as Error).message,
      fix: "pantheon doctor --fix (rebuilds it from the records)",
      fixable: true,
    });
  }
  return {
    records: {
      tasks: tasks.records,
      epics: epics.records,
      missions: missions.records,
      reviews: reviews.records,
      counters,
    },
    findings,
  };
}
