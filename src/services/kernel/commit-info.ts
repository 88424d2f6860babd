import type { Actor } from "../../domain/actor.js";
import type { CommitInfo } from "../../store/store.js";
import { commitActor } from "./resolve-actor.js";

/** `task ENG-H-0007 claim by Hephaestus` plus the trailers' fields. */
export function commitInfo(op: string, subject: string, actor: Actor): CommitInfo {
  const who = commitActor(actor);
  const verb = op.split(".").pop() ?? op;
  return { summary: `${subject} ${verb} by ${actor.name}`, op, ...who };
}
