import { escapeInline } from "./control-chars.js";

/** Where a remote keeps the state, and how a sync came to change it (DESIGN §3.1). */
export interface RemoteRefChange {
  remote: string;
  /** The ref used before: refs/coordination/main. */
  from: string;
  /** The ref used now, recorded in this clone's git config under `key`. */
  ref: string;
  /** "refused": the remote refused `from` for its name and took `ref`; "found": it had no `from`, and a state on `ref`. */
  how: "refused" | "found";
  /** The server's words refusing `from` (how: "refused"): remote text, escaped wherever it is shown. */
  serverSaid: string | null;
  /** The git config key, `pantheon.<remote>.remoteRef`. */
  key: string;
}

/**
 * What a sync says when a remote's state ref changed (never silently): why, what this clone
 * recorded, and what teammates do. The server's words and the remote's name are escaped.
 */
export function remoteRefChangeLines(c: RemoteRefChange): string[] {
  const r = escapeInline(c.remote);
  const set = `git config ${escapeInline(c.key)} ${c.ref}`;
  if (c.how === "found")
    return [`${r} keeps its Pantheon state on ${c.ref} (it has no ${c.from}): recorded in this clone (${set})`];
  return [
    `${r} refused ${c.from} for its name${c.serverSaid ? ` (${escapeInline(c.serverSaid)})` : ""}: the state is published on ${c.ref} instead, recorded in this clone (${set})`,
    `teammates' clones find it by themselves at their next pantheon sync (or set it: ${set}); ${c.ref} is the state's own branch: never check it out or merge it into code`,
  ];
}
