/** A kept pack of Pantheon's, as far as choosing a roll-up goes. */
export interface PackSize {
  name: string;
  /** Objects in it (from its index's size). */
  count: number;
}

/**
 * Which of Pantheon's kept packs a new pack of `loose` objects absorbs: the smallest, one by
 * one, while each is under twice what is gathered so far (git's `repack --geometric=2`), and
 * never past `cap` objects in all. The packs then keep doubling in size, so there are about
 * log2(objects / threshold) of them and each object is copied about as many times; a pack past
 * the cap is left to age out of its `.keep` (an hour), which bounds what one mutation repacks.
 */
export function chooseRollup(packs: readonly PackSize[], loose: number, cap: number): PackSize[] {
  const chosen: PackSize[] = [];
  let gathered = loose;
  for (const p of [...packs].sort((a, b) => a.count - b.count || a.name.localeCompare(b.name))) {
    if (p.count >= 2 * gathered || gathered + p.count > cap) break;
    chosen.push(p);
    gathered += p.count;
  }
  return chosen;
}
