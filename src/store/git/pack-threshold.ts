/**
 * When Pantheon packs its own loose objects (DESIGN §2.4a). git's auto gc counts the loose
 * objects in one directory, `objects/17`, and runs when there are more than
 * ceil(gc.auto / 256) of them (6,700 by default: 27); when the gc it runs cannot pack them
 * (objects with a second name in the keep dir are left loose by its `repack -l`, see
 * loose-packer.ts), git warns "too many unreachable loose objects", writes gc.log and stops
 * auto gc for a day. So Pantheon samples the same directory of its keep dir, whose loose
 * objects are exactly the main store's that git's gc cannot pack yet, and packs them once it
 * holds more than half of what git tolerates: git never finds enough of Pantheon's objects in
 * objects/17 to run, or to warn after running.
 */

/** git's default gc.auto. */
const GIT_GC_AUTO = 6700;
/** Past this many exact-count objects, an override is not a test's: the sample is cheaper. */
const MAX_EXACT = 10_000_000;

export type LooseThreshold =
  /** Pack when `objects/pantheon/17` holds more than `perDir` objects (git's estimate). */
  | { kind: "sample"; perDir: number }
  /** Pack when the keep dir holds more than `objects` loose objects, counted one by one. */
  | { kind: "exact"; objects: number };

/** git_parse_signed for gc.auto: digits with an optional k, m or g; null for what git would refuse. */
export function parseGcAuto(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^\s*(-?\d+)([kmg]?)\s*$/i.exec(value);
  if (!m) return null;
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase()]!;
  return Number(m[1]) * unit;
}

/**
 * The threshold: `PANTHEON_PACK_LOOSE` (a number of objects, counted exactly: for tests and
 * soak runs with few objects, where a sample of one directory says nothing) or half of git's
 * own per-directory limit. gc.auto 0 (auto gc off) keeps git's default: the keep dir is packed
 * anyway, for the size of `.git`.
 */
export function looseThreshold(env: NodeJS.ProcessEnv, gcAuto: string | undefined): LooseThreshold {
  const override = env.PANTHEON_PACK_LOOSE;
  if (override !== undefined && /^\d{1,8}$/.test(override.trim()) && Number(override) <= MAX_EXACT)
    return { kind: "exact", objects: Number(override) };
  const auto = parseGcAuto(gcAuto);
  const limit = auto !== null && auto > 0 ? auto : GIT_GC_AUTO;
  return { kind: "sample", perDir: Math.floor(Math.ceil(limit / 256) / 2) };
}
