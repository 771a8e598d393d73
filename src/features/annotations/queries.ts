import { defaultScheduler, notifyManager, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { session } from '../../state/session';
import { annotationApi, type AnnotationDraft, type NightRef } from './api';
import { edited, insertSorted, provisional, replaced, withoutIds } from './listCache';
import type { Annotation, Category } from './model';

export const annotationKeys = {
  night: (n: NightRef) => ['annotations', n.patientId, n.night] as const,
  categories: (patientId: number) => ['annotation-categories', patientId] as const,
};

/**
 * The night's annotations as a query. No structural sharing: every change of the cached list
 * (listCache.ts) keeps the objects of the annotations it did not change, and comparing a new
 * list of 10,000 with the old one, field by field, took 20–60 ms of each write's frame (issue 36
 * point 1). The list call names the night by patient and night; the recording is not sent.
 */
export function annotationListQuery(n: NightRef) {
  return { queryKey: annotationKeys.night(n), queryFn: () => annotationApi.list(n), structuralSharing: false } as const;
}

export function useAnnotations(n: NightRef) {
  return useQuery({ ...annotationListQuery(n), enabled: n.patientId > 0 && n.night > 0 });
}

export function useCategories(patientId: number) {
  return useQuery({ queryKey: annotationKeys.categories(patientId), queryFn: () => annotationApi.categories(patientId), enabled: patientId > 0 });
}

type Changes = Partial<AnnotationDraft> & { delete_flag?: 0 | 1 };

/**
 * A finished write leaves the mutation cache at once: the sidebar's saving count (useIsMutating)
 * looks through every mutation the cache holds at each write's every step, and a session of
 * scoring keeps hundreds of them for five minutes by default.
 */
export const FORGET_AT_ONCE = 0;

/**
 * Runs `write` with the query cache telling its observers in a microtask of this task, not in a
 * task of its own (the cache's default, a setTimeout): the list drawn again with a key's or a
 * click's change is in the very next frame, where a frame due before that task showed nothing new.
 * Nothing in the app sets another scheduler; the default is put back at once.
 */
function inThisTask(write: () => void): void {
  notifyManager.setScheduler(queueMicrotask);
  try {
    write();
  } finally {
    notifyManager.setScheduler(defaultScheduler);
  }
}

/**
 * The night's list in the cache, changed as a write is sent (so it shows within the frame)
 * and again as its answer comes; a failed write refetches the list, undoing the guess.
 */
function listWrites(client: QueryClient, n: NightRef, author: { id: number; name: string }) {
  const key = annotationKeys.night(n);
  const change = async (f: (list: Annotation[]) => Annotation[]) => {
    // A refetch under way would land on top of the change with the list before it.
    void client.cancelQueries({ queryKey: key });
    inThisTask(() => client.setQueryData<Annotation[]>(key, (list) => (list ? f(list) : list)));
  };
  const refetch = () => client.invalidateQueries({ queryKey: key });
  return {
    add: {
      gcTime: FORGET_AT_ONCE,
      mutationFn: (d: AnnotationDraft) => annotationApi.add(n, d),
      onMutate: async (d: AnnotationDraft) => {
        const guess = provisional(d, author);
        await change((list) => insertSorted(list, [guess]));
        return { id: guess.annotation_map_id };
      },
      onSuccess: (made: Annotation[], _d: AnnotationDraft, c: { id: number } | undefined) =>
        change((list) => insertSorted(withoutIds(list, [c?.id ?? 0]), made.map((a) => ({ ...a, created_by_name: author.name })))),
      onError: refetch,
    },
    update: {
      gcTime: FORGET_AT_ONCE,
      mutationFn: (v: { a: Pick<Annotation, 'annotation_map_id' | 'version'>; changes: Changes }) => annotationApi.update(v.a as Annotation, v.changes),
      onMutate: (v: { a: Pick<Annotation, 'annotation_map_id'>; changes: Changes }) => change((list) => edited(list, v.a.annotation_map_id, v.changes)),
      onSuccess: (saved: Annotation, v: { a: Pick<Annotation, 'annotation_map_id'> }) => change((list) => replaced(list, v.a.annotation_map_id, saved)),
      onError: refetch,
    },
    remove: {
      gcTime: FORGET_AT_ONCE,
      mutationFn: (ids: number[]) => annotationApi.remove(n, ids),
      onMutate: (ids: number[]) => change((list) => withoutIds(list, ids)),
      onError: refetch,
    },
  };
}

/** Every annotation write; adds, edits and deletes change the cached list rather than refetch it. */
export function useAnnotationMutations(n: NightRef) {
  const client = useQueryClient();
  const user = useSnapshot(session).user_details;
  const author = { id: Number(user?.user_id ?? 0), name: `${user?.first_name ?? ''} ${user?.last_name ?? ''}`.trim() };
  const writes = listWrites(client, n, author);
  const refresh = () => client.invalidateQueries({ queryKey: annotationKeys.night(n) });
  const refreshCategories = () => client.invalidateQueries({ queryKey: annotationKeys.categories(n.patientId) });
  return {
    add: useMutation(writes.add),
    update: useMutation(writes.update),
    remove: useMutation(writes.remove),
    generate: useMutation({ mutationFn: (type: 'system' | 'desaturation') => annotationApi.generate(n, type), onSettled: refresh }),
    addCategory: useMutation({ mutationFn: (v: { label: string; color: string }) => annotationApi.addCategory(n.patientId, v.label, v.color), onSettled: refreshCategories }),
    updateCategory: useMutation({ mutationFn: (v: { c: Category; label: string; color: string }) => annotationApi.updateCategory(v.c, v.label, v.color), onSettled: refreshCategories }),
    removeCategory: useMutation({ mutationFn: (c: Category) => annotationApi.removeCategory(c), onSettled: () => Promise.all([refreshCategories(), refresh()]) }),
  };
}
