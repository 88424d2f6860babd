// One persona of the multi-clone soak (scripts/soak-multi.mjs), run as its own process in its own
// clone: `node scripts/soak-persona.mjs '<json config>'`. For the configured time it does what a
// persona does, choices from a PRNG seeded with the run's seed and the clone's index: start a
// mission, ask `task next` and claim, move its task to REVIEW (or close it), review other
// personas' requests (approve with --notes, reject with --reason), create tasks, note, sync now
// and then, read now and then, and sometimes end its mission and start another. Every command
// runs with --json and its outcome is appended to the clone's log (one JSON line per command):
// exit code, class (ok, refused, failed), error code, `published` where said, the task it was
// about (by title), the text it carried, and times. The last stdout line is a summary.
import { appendFileSync } from "node:fs";
import { hashSeed, messageClass, prng, runPantheon } from "./soak-common.mjs";
import { classifyOutcome, publishOutcome } from "./soak-checks.mjs";

const PRIORITIES = ["critical", "high", "medium", "low"];
const WORDS = ["login", "cache", "parser", "sync", "report", "docs", "deploy", "token", "schema", "index", "retry"];
const SPICE = ["", "", "", " — ünïcödé", " 漢字", " 🚀"];

function summaryOf(envelope) {
  const d = envelope?.data;
  if (!d || typeof d !== "object" || Array.isArray(d)) return null;
  const pick = ["id", "title", "status", "claimedBy", "mission", "handle", "requestedBy", "reviewer", "task"];
  return Object.fromEntries(pick.filter((k) => k in d).map((k) => [k, d[k]]));
}

async function persona(cfg) {
  const rnd = prng(hashSeed(cfg.seed, cfg.index));
  const env = { ...cfg.env };
  const name = cfg.persona;
  const role = cfg.role;
  const tally = { clone: cfg.index, persona: name, role, run: 0, ok: 0, refused: 0, failed: 0 };
  let seq = 0;
  let mission = null; // handle
  let held = null; // { id, title }: the task this persona believes it holds
  const known = []; // ids of tasks this persona has seen, for notes and dependencies

  const text = (what) => {
    const tag = `[${what} c${cfg.index} ${name} #${seq + 1}]`;
    return { text: `${rnd.pick(WORDS)} ${rnd.pick(WORDS)}${rnd.pick(SPICE)} ${tag}`, tag };
  };

  /** Runs one command with --json and records its outcome; returns the envelope of a success. */
  const run = (kind, argv, extra = {}) => {
    seq++;
    const full = [...argv, "--json"];
    const r = runPantheon(cfg.bin, cfg.cwd, full, env);
    const c = classifyOutcome({
      kind,
      status: r.status,
      signal: r.signal,
      stdout: r.stdout,
      stderr: r.stderr,
      spawnError: r.error ? r.error.message : null,
    });
    const pub =
      c.outcome === "ok"
        ? publishOutcome(c.envelope, r.stderr)
        : { published: null, why: null, stderrUnpublished: false, stderrWhy: null };
    const warn = r.stderr
      .split("\n")
      .find((l) => l.trim() !== "" && !l.startsWith("{"))
      ?.trim();
    const rec = {
      clone: cfg.index,
      persona: name,
      seq,
      kind,
      argv: full,
      t0: r.t0,
      t1: r.t1,
      exit: r.status,
      signal: r.signal,
      outcome: c.outcome,
      code: c.code,
      why: c.why,
      message: c.message,
      class:
        c.outcome === "ok"
          ? warn
            ? messageClass(warn)
            : null
          : `${c.code ?? `exit ${r.status}`}: ${messageClass(c.message ?? c.why ?? "")}`,
      published: pub.published,
      publishedWhy: pub.why,
      stderrUnpublished: pub.stderrUnpublished,
      stderrWhy: pub.stderrWhy,
      result: summaryOf(c.envelope),
      ...extra,
    };
    if (c.outcome === "ok" && rec.result?.title && kind.startsWith("task ")) rec.task = rec.result.title;
    if (kind === "sync" && c.outcome === "ok") {
      const d = c.envelope.data;
      rec.sync = {
        action: d.action,
        attempts: d.attempts,
        merges: d.merges,
        renumbered: d.renumbered?.length ?? 0,
        droppedClaims: (d.droppedClaims ?? []).map((x) => x.message),
        conflicts: (d.conflicts ?? []).map((x) => `${x.record} (${(x.fields ?? []).join(", ")})`),
      };
    }
    if (c.outcome === "failed") {
      rec.stdout = r.stdout.slice(0, 800);
      rec.stderr = r.stderr.slice(0, 1500);
    }
    appendFileSync(cfg.log, `${JSON.stringify(rec)}\n`);
    tally.run++;
    tally[c.outcome]++;
    return c.outcome === "ok" ? c.envelope : null;
  };
  const as = () => ["--mission", mission];

  const startMission = () => {
    const e = run("mission start", [
      "mission",
      "start",
      "--role",
      role,
      "--persona",
      name,
      "--objective",
      `soak ${name}`,
    ]);
    if (e) mission = e.data.handle ?? e.data.id;
    else {
      // Still ACTIVE from an end that did not land here: find it.
      const m = run("read: mission list", ["mission", "list", "--active"]);
      const mine = (m?.data ?? []).find((x) => x.persona === name);
      if (mine) mission = mine.handle ?? mine.id;
    }
  };

  const ops = {
    /** Holding a task: move it on (to REVIEW, mostly), or note it. */
    work: () => {
      const x = rnd.next();
      if (x < 0.7) {
        const notes = rnd.chance(0.5) ? text("update") : null;
        const e = run(
          "task update",
          [...as(), "task", "update", held.id, "--status", "REVIEW", ...(notes ? ["--notes", notes.text] : [])],
          notes ? { textTag: notes.tag, text: notes.text, target: held.title } : { target: held.title },
        );
        held = null; // in REVIEW (its reviewer decides), or refused: either way not this persona's to move now
        return e;
      }
      if (x < 0.85) {
        run("task close", [...as(), "task", "close", held.id], { target: held.title });
        held = null;
        return;
      }
      const t = text("note");
      const e = run("task note", [...as(), "task", "note", held.id, t.text], {
        textTag: t.tag,
        text: t.text,
        target: held.title,
      });
      if (!e) held = null;
    },
    /** Not holding one: a rejected task of its own first, else `task next` and claim. */
    take: () => {
      if (rnd.chance(0.3)) {
        const mine = run("read: task mine", [...as(), "task", "mine"]);
        const back = (mine?.data ?? []).find((t) => t.status === "UNDERWAY" && t.claimedBy === name);
        if (back) {
          held = { id: back.id, title: back.title };
          return;
        }
      }
      const next = run("read: task next", [...as(), "task", "next", "--count", "3"]);
      const list = next?.data ?? [];
      if (list.length === 0) return;
      // Mostly the first: every persona of a role is told the same one, as in life.
      const t = rnd.chance(0.7) ? list[0] : rnd.pick(list);
      const e = run("task claim", [...as(), "task", "claim", t.id], { target: t.title });
      if (e) held = { id: e.data.id, title: e.data.title };
    },
    create: () => {
      const title = `${rnd.pick(WORDS)} ${rnd.pick(WORDS)}${rnd.pick(SPICE)} c${cfg.index}#${seq + 1}`;
      const taskRole = rnd.chance(0.6) ? role : rnd.pick(cfg.roles);
      const deps = known.length > 0 && rnd.chance(0.1) ? ["--depends-on", rnd.pick(known.slice(-5))] : [];
      const e = run(
        "task create",
        [...as(), "task", "create", "--title", title, "--role", taskRole, "--priority", rnd.pick(PRIORITIES), ...deps],
        { title },
      );
      if (e) known.push(e.data.id);
    },
    review: () => {
      const list = run("read: review list", ["review", "list", "--status", "PENDING"]);
      const others = (list?.data ?? []).filter((v) => v.requestedBy !== name);
      if (others.length === 0) return;
      // Mostly the oldest: parallel reviewers pick the same request.
      const v = rnd.chance(0.6) ? others[0] : rnd.pick(others);
      if (rnd.chance(0.65)) {
        const t = text("approve");
        run("review approve", [...as(), "review", "approve", v.id, "--notes", t.text], {
          textTag: t.tag,
          text: t.text,
          review: v.id,
          target: v.task,
        });
      } else {
        const t = text("reject");
        run("review reject", [...as(), "review", "reject", v.id, "--reason", t.text], {
          textTag: t.tag,
          text: t.text,
          review: v.id,
          target: v.task,
        });
      }
    },
    note: () => {
      if (known.length === 0) return;
      const t = text("note");
      run("task note", [...as(), "task", "note", rnd.pick(known), t.text], { textTag: t.tag, text: t.text });
    },
    sync: () => {
      const e = run("sync", ["sync"]);
      for (const m of e?.data?.droppedClaims ?? []) if (held && m.yours === name && m.task === held.id) held = null;
    },
    read: () => {
      const argv = rnd.pick([
        ["task", "list"],
        ["dashboard"],
        ["task", "report"],
        ["log", "-n", "5"],
        ...(held ? [["task", "show", held.id]] : []),
      ]);
      const e = run(`read: ${argv[0] === "task" ? argv.slice(0, 2).join(" ") : argv[0]}`, argv);
      if (argv[1] === "list" && e) for (const t of e.data.slice(-20)) if (!known.includes(t.id)) known.push(t.id);
    },
    cycle: () => {
      const release = rnd.chance(0.5);
      run("mission end", ["mission", "end", mission, "--summary", `soak ${name}`, ...(release ? ["--release"] : [])]);
      mission = null;
      if (release) held = null;
      startMission();
    },
  };
  const weights = [
    ["next", 32],
    ["create", 14],
    ["review", 16],
    ["sync", 8],
    ["read", 10],
    ["note", 4],
    ["cycle", 1],
  ];
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const choose = () => {
    let x = rnd.next() * total;
    for (const [op, w] of weights) if ((x -= w) < 0) return op;
    return weights[0][0];
  };

  startMission();
  while (Date.now() < cfg.deadline) {
    if (!mission) {
      startMission();
      continue;
    }
    const op = choose();
    if (op === "next") (held ? ops.work : ops.take)();
    else ops[op]();
  }
  process.stdout.write(`${JSON.stringify(tally)}\n`);
}

await persona(JSON.parse(process.argv[2]));
