/**
 * Look-alike names. A persona called "Dіrector" (a Cyrillic і) reads as the Director in every
 * list, note and commit, so reserved names are compared by their skeleton, after the ideas of
 * Unicode TR39: NFKC (fullwidth and mathematical letters), no marks (`í`), no separators, and the
 * common look-alikes of other scripts and digits mapped to the Latin letter they pass for. No table
 * is complete, so names that mix the alphabets sharing those look-alikes are refused as well.
 */

/** Look-alikes (after lower-casing) and the Latin letter each passes for. */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: "a",
  в: "b",
  с: "c",
  ԁ: "d",
  е: "e",
  һ: "h",
  і: "i",
  ӏ: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  г: "r",
  ѕ: "s",
  т: "t",
  у: "y",
  х: "x",
  ԛ: "q",
  ԝ: "w",
  // Greek
  α: "a",
  β: "b",
  ϲ: "c",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  // Latin look-alikes of Latin letters, and digits
  ı: "i",
  ɩ: "i",
  ǀ: "i",
  l: "i",
  "1": "i",
  "|": "i",
  "0": "o",
  ɑ: "a",
  ɡ: "g",
  ʀ: "r",
  ᴄ: "c",
  ᴅ: "d",
  ᴇ: "e",
  ᴏ: "o",
  ᴛ: "t",
  // Armenian, Cherokee (lower case since Unicode 8)
  օ: "o",
  ո: "n",
  ս: "u",
  ꭰ: "d",
  ꭱ: "r",
  ꭼ: "e",
  ꮯ: "c",
  ꭲ: "t",
  ꮎ: "o",
};

/** What a name looks like: lower-case Latin letters and digits, look-alikes folded, separators dropped. */
export function nameSkeleton(name: string): string {
  const folded = name.normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  let out = "";
  for (const c of folded) {
    if (/[\s.'’-]/u.test(c)) continue;
    out += LOOK_ALIKES[c] ?? c;
  }
  return out;
}

/** Whether `name` reads as `reserved` (case, marks, look-alike letters and separators aside). */
export function looksLike(name: string, reserved: string): boolean {
  return nameSkeleton(name) === nameSkeleton(reserved);
}

/** Alphabets whose letters pass for each other's; a name mixing two of them is a look-alike in the making. */
const ALPHABETS: Array<[string, RegExp]> = [
  ["Latin", /\p{Script=Latin}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
];

/** The first two of those alphabets a name's letters come from, or null when it keeps to one. */
export function mixedAlphabets(name: string): [string, string] | null {
  const seen: string[] = [];
  for (const c of name.normalize("NFKC")) {
    const found = ALPHABETS.find(([, re]) => re.test(c));
    if (found && !seen.includes(found[0])) seen.push(found[0]);
    if (seen.length === 2) return [seen[0]!, seen[1]!];
  }
  return null;
}

/** A name with every character outside printable ASCII shown as `\u{…}`, so a look-alike shows itself. */
export function revealed(name: string): string {
  return name.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
