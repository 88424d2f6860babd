import { RenumberedError } from "../../errors.js";
import { epicId, missionHandle, missionId, printable, reviewId, taskId } from "../../domain/ids.js";
import { ROLE_CODES } from "../../domain/roles.js";
import type { Review } from "../../domain/schemas/review.js";
import type { FormerOwner, RecordKind, RecordTypes, Snapshot, Tx } from "../../store/store.js";

/** What a finder needs of the command: where notices go, and whether `--force` was given. */
export interface IdLookup {
  warn(message: string): void;
  force?: boolean | undefined;
  /**
   * The reviews this command could act on (a decision: not the actor's own request, which it
   * may not decide). A renumbered review it could not act on cannot be what it meant, so it
   * neither makes the number ambiguous nor is offered in a hint. All when absent.
   */
  reviewable?: ((review: Review) => boolean) | undefined;
}

/** A lookup that says nothing and forces nothing (internal lookups by a handle). */
export const QUIET_LOOKUP: IdLookup = { warn: () => {} };

/** How a record was named: the text as typed (trimmed, upper-cased), and whether it is a full task or epic id. */
export interface WrittenForm {
  text: string;
  full: boolean;
}

/** A mission or review named by its number alone (`MSN-0003`, `RVW-001`, `3`): never a full id. */
export function writtenNumber(input: string): WrittenForm {
  return { text: printable(input.trim()).toUpperCase(), full: false };
}

/**
 * Whether a snapshot is a mutation's: every record a mutation looks up is one it acts on or
 * through (the task it changes, a dependency it adds, the mission it acts under), so the
 * stricter rules for mutations apply to all of them and no call site can forget them.
 */
export function inMutation(snap: Snapshot): snap is Tx {
  return typeof (snap as Partial<Tx>).put === "function";
}

const NOUN: Record<RecordKind, string> = { tasks: "task", epics: "epic", missions: "mission", reviews: "review" };

export function recordId<K extends RecordKind>(kind: K, r: RecordTypes[K]): string {
  switch (kind) {
    case "tasks":
      return taskId(r as RecordTypes["tasks"]);
    case "epics":
      return epicId(r as RecordTypes["epics"]);
    case "missions":
      return missionId(r.number);
    default:
      return reviewId(r.number);
  }
}

/**
 * The ids a renumbered record may have had at number `n`: the one its sync kept, or (in a log of
 * an earlier version) its id now at that number, under every role it has had.
 */
export function formerIds<K extends RecordKind>(kind: K, owner: FormerOwner<RecordTypes[K]>, n: number): string[] {
  if (owner.formerId) return [owner.formerId];
  const r = owner.record;
  if (kind !== "tasks") return [recordId(kind, { ...r, number: n })];
  const t = r as RecordTypes["tasks"];
  return [t.role, ...t.formerRoles].map((role) => taskId({ ...t, role, number: n }));
}

/** The role prefixes a renumbered task's ids here could have carried: its former id's, and every role it has had. */
export function taskPrefixes(owner: FormerOwner<RecordTypes["tasks"]>, n: number): Set<string> {
  const t = owner.record;
  return new Set<string>([
    ...formerIds("tasks", owner, n).map((id) => id.slice(0, 3)),
    ...[t.role, ...t.formerRoles].map((role) => ROLE_CODES[role]),
  ]);
}

/**
 * Whether the written form could mean the renumbered record (DESIGN §1.2): a bare number could;
 * a full task or epic id could when it is the record's former id, or is not the current owner's
 * exact id and fits the record (a task's role prefix; for an epic, any priority letter, which
 * has no history); a bare mission or review number only while the record is still open.
 */
function couldMean<K extends RecordKind>(
  kind: K,
  owner: FormerOwner<RecordTypes[K]>,
  n: number,
  written: WrittenForm,
  current: string,
  look: IdLookup,
): boolean {
  if (kind === "missions") return (owner.record as RecordTypes["missions"]).status === "ACTIVE";
  if (kind === "reviews") {
    const review = owner.record as RecordTypes["reviews"];
    return review.status === "PENDING" && (look.reviewable?.(review) ?? true);
  }
  if (!written.full) return true;
  const ids = formerIds(kind, owner, n);
  if (ids.includes(written.text)) return true;
  if (written.text === current) return false;
  if (kind === "epics") return true;
  return taskPrefixes(owner as FormerOwner<RecordTypes["tasks"]>, n).has(written.text.slice(0, 3));
}

/**
 * The form that names the current owner whatever this clone renumbered: a task's or epic's exact
 * id unless it was also a renumbered record's id, a mission's handle (the codename decides); a
 * review has none (--force is the way to it).
 */
function unambiguousForm<K extends RecordKind>(
  kind: K,
  found: RecordTypes[K],
  owners: FormerOwner<RecordTypes[K]>[],
): string | null {
  if (kind === "missions") return missionHandle(found as RecordTypes["missions"]);
  if (kind === "reviews") return null;
  const current = recordId(kind, found);
  return owners.some((o) => formerIds(kind, o, found.number).includes(current)) ? null : current;
}

/**
 * After a sync renumbered this clone's record, its old number belongs to the published one
 * (DESIGN §1.2, §3.4). A read through the number resolves to the current owner with a notice; a
 * mutation through a form that could still mean the renumbered record (a persona holding an id
 * from before the sync) is refused naming both, unless repeated with --force. The current
 * owner's exact id (`ENG-H-0001` while this clone's record was `TST-H-0001`) names it and acts
 * at once, without a word. (A task's full id that this very command's fetch renumbered is
 * findTask's: it names this clone's task.) Returns whether it printed a notice (a finder then
 * adds no other).
 */
export async function checkRenumbered<K extends RecordKind>(
  snap: Snapshot,
  kind: K,
  found: RecordTypes[K],
  written: WrittenForm,
  look: IdLookup,
): Promise<boolean> {
  const owners = await snap.formerOwners(kind, found.number);
  if (owners.length === 0) return false;
  const n = found.number;
  const current = recordId(kind, found);
  const rivals = owners.filter((o) => couldMean(kind, o, n, written, current, look));
  if (rivals.length === 0 && written.full && written.text === current) return false;
  if (rivals.length > 0 && inMutation(snap) && !look.force) {
    throw renumberedError(kind, found, rivals, written, {
      message: `${written.text} names ${current} now: a sync renumbered this clone's ${NOUN[kind]} ${rivals.map((o) => formerIds(kind, o, n)[0]).join(", ")} to ${rivals.map((o) => recordId(kind, o.record)).join(", ")}, and the number went to ${current} from another clone`,
      currentForm: unambiguousForm(kind, found, owners),
      force: true,
      look,
    });
  }
  const named = (rivals.length > 0 ? rivals : owners).map((o) => recordId(kind, o.record)).join(", ");
  look.warn(
    `note: ${current} is the published ${NOUN[kind]} with this number; ${named} had it here before a sync renumbered it`,
  );
  return true;
}

/**
 * A mutation named a task by the full id this clone's task had before a sync renumbered it, and
 * the number's owner now has another role prefix: never that task (DESIGN §1.2), and not this
 * clone's either (its number is another now). Refused naming both; --force cannot help.
 */
export async function refuseFormerId(
  snap: Snapshot,
  found: RecordTypes["tasks"],
  owner: FormerOwner<RecordTypes["tasks"]>,
  written: WrittenForm,
  look: IdLookup,
): Promise<RenumberedError> {
  const owners = await snap.formerOwners("tasks", found.number);
  const current = taskId(found);
  return renumberedError("tasks", found, [owner], written, {
    message: `${written.text} was this clone's task: a sync renumbered it to ${taskId(owner.record)}, and the number went to ${current} from another clone`,
    currentForm: unambiguousForm("tasks", found, owners),
    force: false,
    look,
  });
}

function renumberedError<K extends RecordKind>(
  kind: K,
  found: RecordTypes[K],
  rivals: FormerOwner<RecordTypes[K]>[],
  written: WrittenForm,
  o: { message: string; currentForm: string | null; force: boolean; look: IdLookup },
): RenumberedError {
  const current = recordId(kind, found);
  const mine = rivals.map((r) => recordId(kind, r.record));
  const forbidden = kind === "reviews" && o.look.reviewable?.(found as Review) === false;
  const toCurrent = forbidden
    ? null
    : o.currentForm
      ? `${o.currentForm} for the ${NOUN[kind]} that holds number ${found.number} now`
      : o.force
        ? `repeat the command with --force to act on ${current}`
        : null;
  return new RenumberedError(
    o.message,
    `use ${mine.join(" or ")} for this clone's ${NOUN[kind]}${toCurrent ? `, or ${toCurrent}` : ""}`,
    {
      kind,
      number: found.number,
      written: written.text,
      current,
      renumbered: mine,
      former: rivals.map((r) => formerIds(kind, r, found.number)[0]),
      // How a command line reaches the current owner: this form, else --force (if it can), else not at all.
      currentForm: forbidden ? null : o.currentForm,
      force: !forbidden && o.force,
    },
  );
}
