import type { Finding } from "../../domain/state-checks.js";
import type { RepositoryStatus, Store } from "../../store/store.js";

const REF = "refs/coordination/main";

/**
 * What doctor says about the repository itself (DESIGN §2.2, §2.3): a format Pantheon does not
 * implement, a core.sharedRepository git would refuse or files that do not honour it, a missing
 * or damaged state ref (and whether it can be recovered), a missing reflog.
 */
export function repositoryFindings(repo: RepositoryStatus, recoverable: number): Finding[] {
  const out: Finding[] = [];
  for (const u of repo.unsupported) {
    out.push({
      severity: "error",
      code: "E_UNSUPPORTED_REPOSITORY",
      subject: u.key,
      message: `this repository sets ${u.key} = ${u.value} (${u.why}); Pantheon writes SHA-1 objects and loose refs, so every command refuses it`,
      fix: "use Pantheon in a SHA-1 repository with the files ref backend (git init --object-format=sha1); nothing was written here",
      fixable: false,
    });
  }
  if (repo.sharedRepository.problem) {
    out.push({
      severity: "error",
      code: "E_SHARED_REPOSITORY",
      subject: "core.sharedRepository",
      message: `core.sharedRepository = ${repo.sharedRepository.value} cannot work: ${repo.sharedRepository.problem} (git refuses it too)`,
      fix: "git config core.sharedRepository group (or all, umask, or a mode such as 0660)",
      fixable: false,
    });
  }
  if (repo.permissions.length > 0) {
    const first = repo.permissions[0]!;
    out.push({
      severity: "warning",
      code: "W_SHARED_PERMISSIONS",
      subject: first.path,
      message: `${repo.permissions.length} file(s) or directories Pantheon uses do not honour core.sharedRepository = ${repo.sharedRepository.value} (${first.path} is ${first.mode}, git would make it ${first.want}): other members of the group cannot write`,
      fix: "pantheon doctor --fix (applies the permissions git would give; run it as the files' owner)",
      fixable: true,
    });
  }
  if (repo.ref.state === "missing" && repo.unsupported.length === 0) {
    out.push({
      severity: "error",
      code: "E_REF_MISSING",
      subject: REF,
      message: `${REF} is missing, and ${recoverable} earlier state(s) named by its reflog can be restored`,
      fix: "pantheon doctor --recover",
      fixable: false,
    });
  }
  if (repo.ref.state === "damaged") {
    out.push({
      severity: "error",
      code: "E_REF_DAMAGED",
      subject: REF,
      message: `${REF}${repo.ref.oid ? ` (${repo.ref.oid.slice(0, 12)})` : ""} cannot be read: ${repo.ref.detail}; ${recoverable} earlier state(s) can be restored`,
      fix:
        recoverable > 0
          ? "pantheon doctor --recover"
          : "git fsck --lost-found (dangling commits), then pantheon doctor --recover <commit>",
      fixable: false,
    });
  }
  if (!repo.keepListed) {
    out.push({
      severity: "error",
      code: "E_KEEP_ALTERNATE",
      subject: "objects/info/alternates",
      message:
        "objects/pantheon holds objects Pantheon wrote, but objects/info/alternates no longer names it: git cannot see those of them a gc pruned from the main store",
      fix: "pantheon doctor --fix (lists it again)",
      fixable: true,
    });
  }
  if (repo.identity.source === "fallback") {
    out.push({
      severity: "warning",
      code: "W_NO_IDENTITY",
      subject: "user.email",
      message: `git has no identity here: commits are made as ${repo.identity.who}`,
      fix: 'git config --global user.name "Your Name"; git config --global user.email you@example.com',
      fixable: false,
    });
  }
  if (repo.ref.state === "ok" && !repo.reflog) {
    out.push({
      severity: "warning",
      code: "W_NO_REFLOG",
      subject: `logs/${REF}`,
      message: `${REF} has no reflog (made before Pantheon kept one, or deleted): a lost ref could not be recovered from git's reflog`,
      fix: "pantheon doctor --fix (starts it)",
      fixable: true,
    });
  }
  return out;
}

/** The repairs of the repository itself (outside the state's commit): permissions and the reflog. */
export async function repairRepository(store: Store, findings: Finding[]): Promise<string[]> {
  const fixed: string[] = [];
  if (findings.some((f) => f.code === "W_SHARED_PERMISSIONS")) {
    const r = await store.fixPermissions();
    if (r.fixed.length > 0) fixed.push(`applied core.sharedRepository's permissions to ${r.fixed.length} path(s)`);
    if (r.failed.length > 0)
      fixed.push(
        `could not change ${r.failed.length} path(s) owned by someone else (${r.failed[0]}): their owner can run pantheon doctor --fix`,
      );
  }
  if (findings.some((f) => f.code === "W_NO_REFLOG") && (await store.startReflog()))
    fixed.push(`started the reflog of ${REF}`);
  if (findings.some((f) => f.code === "E_KEEP_ALTERNATE") && (await store.listKeepDir()))
    fixed.push("listed objects/pantheon in objects/info/alternates again");
  return fixed;
}
