import { parsePriority } from "../domain/priority.js";
import { epicView, type EpicView } from "../render/epic-view.js";
import {
  abortEpic,
  createEpic,
  editEpic,
  linkTasks,
  listEpics,
  showEpic,
  unlinkTasks,
} from "../services/work/epics.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import { defined, ids, type PriorityInput } from "./inputs.js";

/** Epics: status and progress are derived from the linked tasks. */
export interface EpicsApi {
  /** `epic create`. */
  create(input: CallOptions & { title: string; priority?: PriorityInput; description?: string }): Promise<EpicView>;
  /** `epic show`: with its tasks. */
  show(id: string, o?: CallOptions): Promise<EpicView>;
  /** `epic list`. */
  list(o?: CallOptions): Promise<EpicView[]>;
  /** `epic link`: a task moves from its previous epic. */
  link(epic: string, tasks: string | string[], o?: CallOptions): Promise<EpicView>;
  /** `epic unlink`. */
  unlink(epic: string, tasks: string | string[], o?: CallOptions): Promise<EpicView>;
  /** `epic edit`. */
  edit(
    id: string,
    o: CallOptions & { title?: string; priority?: PriorityInput; description?: string },
  ): Promise<EpicView>;
  /** `epic abort`: its tasks are left as they are. */
  abort(id: string, o: CallOptions & { reason: string }): Promise<EpicView>;
}

export function epicsApi(contexts: ContextFactory): EpicsApi {
  const priority = (p: PriorityInput | undefined) => (p === undefined ? undefined : parsePriority(p, "priority"));
  return {
    create: async (i) =>
      epicView(
        await createEpic(
          contexts.for(i),
          defined({
            title: i.title,
            priority: parsePriority(i.priority ?? "MEDIUM", "priority"),
            description: i.description,
          }),
        ),
      ),
    show: async (id, o) => epicView(await showEpic(contexts.for(o), id)),
    list: async (o) => (await listEpics(contexts.for(o))).map(epicView),
    link: async (epic, tasks, o) => epicView(await linkTasks(contexts.for(o), { epic, tasks: ids(tasks) })),
    unlink: async (epic, tasks, o) => epicView(await unlinkTasks(contexts.for(o), { epic, tasks: ids(tasks) })),
    edit: async (id, o) =>
      epicView(
        await editEpic(
          contexts.for(o),
          defined({ id, title: o.title, priority: priority(o.priority), description: o.description }),
        ),
      ),
    abort: async (id, o) => epicView(await abortEpic(contexts.for(o), { id, reason: o.reason })),
  };
}
