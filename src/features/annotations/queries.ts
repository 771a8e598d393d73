import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { annotationApi, type AnnotationDraft, type NightRef } from './api';
import type { Annotation, Category } from './model';

export const annotationKeys = {
  night: (n: NightRef) => ['annotations', n.patientId, n.night] as const,
  categories: (patientId: number) => ['annotation-categories', patientId] as const,
};

export function useAnnotations(n: NightRef) {
  return useQuery({ queryKey: annotationKeys.night(n), queryFn: () => annotationApi.list(n), enabled: n.patientId > 0 && n.night > 0 });
}

export function useCategories(patientId: number) {
  return useQuery({ queryKey: annotationKeys.categories(patientId), queryFn: () => annotationApi.categories(patientId), enabled: patientId > 0 });
}

/** Every annotation write, each refreshing the night's list when it settles. */
export function useAnnotationMutations(n: NightRef) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: annotationKeys.night(n) });
  const refreshCategories = () => client.invalidateQueries({ queryKey: annotationKeys.categories(n.patientId) });
  return {
    add: useMutation({ mutationFn: (d: AnnotationDraft) => annotationApi.add(n, d), onSettled: refresh }),
    update: useMutation({ mutationFn: (v: { a: Annotation; changes: Partial<AnnotationDraft> & { delete_flag?: 0 | 1 } }) => annotationApi.update(v.a, v.changes), onSettled: refresh }),
    remove: useMutation({ mutationFn: (ids: number[]) => annotationApi.remove(n, ids), onSettled: refresh }),
    generate: useMutation({ mutationFn: (type: 'system' | 'desaturation') => annotationApi.generate(n, type), onSettled: refresh }),
    addCategory: useMutation({ mutationFn: (v: { label: string; color: string }) => annotationApi.addCategory(n.patientId, v.label, v.color), onSettled: refreshCategories }),
    updateCategory: useMutation({ mutationFn: (v: { c: Category; label: string; color: string }) => annotationApi.updateCategory(v.c, v.label, v.color), onSettled: refreshCategories }),
    removeCategory: useMutation({ mutationFn: (c: Category) => annotationApi.removeCategory(c), onSettled: () => Promise.all([refreshCategories(), refresh()]) }),
  };
}
