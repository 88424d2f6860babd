import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";

describe("--json of a long list", () => {
  it("is written in slices yet is one document, byte for byte what JSON.stringify would write", async () => {
    const p = await initializedProject();
    const file = join(p.dir, "import.json");
    writeFileSync(
      file,
      JSON.stringify(
        Array.from({ length: 1203 }, (_, i) => ({
          key: `k${i}`,
          title: `Task "${i}" ✓`,
          role: "engineer",
          ...(i > 0 && i % 3 === 0 ? { depends_on: [`k${i - 1}`] } : {}),
        })),
      ),
    );
    await p.ok(["task", "import", file]);
    const out = (await p.ok(["task", "list", "--json"])).stdout;
    const doc = JSON.parse(out);
    expect(out).toBe(`${JSON.stringify(doc)}\n`);
    expect(doc.kind).toBe("tasks");
    expect(doc.data).toHaveLength(1203);
    expect(doc.data.map((t: { number: number }) => t.number)).toEqual(Array.from({ length: 1203 }, (_, i) => i + 1));
    const short = (await p.ok(["task", "list", "--json", "--limit", "2"])).stdout;
    expect(JSON.parse(short).data).toHaveLength(2);
  });
});
