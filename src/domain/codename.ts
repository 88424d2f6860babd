const ADJECTIVES = [
  "silent", "amber", "brave", "crimson", "dawn", "eager", "frosty", "golden", "hidden", "iron",
  "jade", "keen", "lunar", "misty", "noble", "onyx", "proud", "quiet", "rapid", "scarlet",
  "swift", "tidal", "umber", "vivid", "wild", "young", "azure", "bold", "calm", "distant",
  "ember", "fierce", "gentle", "hollow", "ivory", "jolly", "kind", "lucky", "mellow", "nimble",
  "olive", "patient", "rustic", "sable", "tawny", "urban", "velvet", "wandering", "zealous", "bright",
  "cosmic", "dusky", "electric", "fabled", "granite", "humble", "icy", "lively", "marble", "northern",
  "opal", "polar", "radiant", "solar",
] as const;

const NOUNS = [
  "phoenix", "falcon", "harbor", "meadow", "comet", "river", "summit", "lantern", "voyager", "anchor",
  "beacon", "canyon", "delta", "ember", "forest", "glacier", "horizon", "island", "jaguar", "kestrel",
  "lagoon", "mesa", "nebula", "orchard", "prairie", "quarry", "raven", "sparrow", "tundra", "valley",
  "willow", "zephyr", "badger", "cedar", "dolphin", "eagle", "fjord", "grove", "heron", "iris",
  "juniper", "kraken", "lynx", "maple", "nomad", "otter", "pebble", "quill", "reef", "sequoia",
  "thistle", "unicorn", "vortex", "wolf", "yarrow", "aurora", "bison", "cobalt", "dune", "echo",
  "fable", "garnet", "hawk", "ibis",
] as const;

/**
 * A codename such as `silent-phoenix`: it stays with a mission when a sync renumbers it, so
 * `MSN-0003:silent-phoenix` still names the right mission. Avoids codenames already taken.
 */
export function makeCodename(random: () => number, taken: ReadonlySet<string>): string {
  for (let i = 0; i < 64; i++) {
    const name = `${ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]}-${NOUNS[Math.floor(random() * NOUNS.length)]}`;
    if (!taken.has(name)) return name;
  }
  // 4,096 combinations: past 64 random misses, take the first free one in order.
  for (const a of ADJECTIVES) for (const n of NOUNS) if (!taken.has(`${a}-${n}`)) return `${a}-${n}`;
  return `${ADJECTIVES[0]}-${NOUNS[0]}`; // every codename used: uniqueness is then by number alone
}
