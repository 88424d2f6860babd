import { describe, expect, it } from "vitest";
import { looksLike, mixedAlphabets, nameSkeleton, revealed } from "../../../src/domain/confusable-names.js";
import { isPersonaName, nameTrouble } from "../../../src/domain/persona-names.js";

describe("look-alike names", () => {
  it.each([
    "Dіrector", // Cyrillic і
    "Dirеctor", // Cyrillic е
    "Directоr", // Cyrillic о
    "DІRЕСТОR", // Cyrillic І Е С Т О
    "Diгector", // Cyrillic г
    "Dιrector", // Greek ι
    "Directοr", // Greek ο
    "ԁirector", // Cyrillic ԁ
    "Ｄｉｒｅｃｔｏｒ", // fullwidth (NFKC)
    "𝐃𝐢𝐫𝐞𝐜𝐭𝐨𝐫", // mathematical bold (NFKC)
    "Dírector", // a mark
    "D1rector",
    "DIRECT0R",
    "Dlrector",
    "Direc tor",
    "D.i.r.e.c.t.o.r",
    "Di-rector",
  ])("%s passes for Director and is no persona's name", (name) => {
    expect(looksLike(name, "Director")).toBe(true);
    expect(isPersonaName(name)).toBe(false);
    expect(nameTrouble(name)).toMatch(/reserved for the Director/);
  });

  it.each([
    "Hephaestus",
    "Directrix",
    "Dio",
    "Rector",
    "Zoë",
    "Aña",
    "Ἀθηνᾶ",
    "Гефест",
    "天照",
    "Engineer 2",
    "O'Neill",
  ])("%s is a persona's name", (name) => {
    expect(looksLike(name, "Director")).toBe(false);
    expect(nameTrouble(name)).toBeNull();
  });

  it("refuses names that mix the alphabets look-alikes come from", () => {
    expect(mixedAlphabets("Hеphaestus")).toEqual(["Latin", "Cyrillic"]); // Cyrillic е
    expect(mixedAlphabets("Aθena")).toEqual(["Latin", "Greek"]);
    expect(mixedAlphabets("Гeфест")).toEqual(["Cyrillic", "Latin"]);
    expect(mixedAlphabets("Hephaestus 2")).toBeNull();
    expect(mixedAlphabets("天照 Amaterasu")).toBeNull(); // other scripts are not look-alikes of these
    expect(nameTrouble("Hеphaestus")).toBe("mixes Latin and Cyrillic letters, as look-alike names do");
  });

  it("shows a look-alike's characters, and folds to a skeleton", () => {
    expect(revealed("Dіrector")).toBe("D\\u{456}rector");
    expect(revealed("Director")).toBe("Director");
    expect(nameSkeleton("Dіrector")).toBe("director");
  });
});
