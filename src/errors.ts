/**
 * The error catalogue: every class Pantheon throws, one file per family under errors/, and the
 * codes with their exit codes in errors/error-codes.ts (listed for users in docs/errors.md).
 * Only `cli/exit-code.ts` turns them into process exit codes, by type.
 */
export { ERROR_EXIT_CODES, type ErrorCode, type ExitCode, type GitErrorCode } from "./errors/error-codes.js";
export { PantheonError, QuietExit } from "./errors/pantheon-error.js";
export {
  ConflictError,
  CorruptRecordError,
  InvalidTransitionError,
  NotFoundError,
  OpenCriteriaError,
  RenumberedError,
  SchemaVersionError,
  UnsafeArgumentError,
  UsageError,
} from "./errors/domain-errors.js";
export {
  GitError,
  RepositoryError,
  SharedPermError,
  StateLostError,
  TreeTooLargeError,
  UnsupportedRepositoryError,
} from "./errors/repository-errors.js";
export {
  ContentionError,
  ForkRefusedError,
  formatAge,
  LockedError,
  NoMergeBaseError,
  RemoteRewrittenError,
  SyncError,
} from "./errors/contention-errors.js";
export {
  AssistantExit,
  CancelledError,
  DoctorFoundProblems,
  OutputClosed,
  RecoveryNeedsChoice,
  WatchEnded,
} from "./errors/command-exits.js";
export { diskFull, fsFailure } from "./errors/fs-failure.js";
