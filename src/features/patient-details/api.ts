// Calls of the Patient details tab (spec 2 §7): conditions, check-ups, comments.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddCheckupBody, AddCommentBody, DeleteCommentBody, MarkCheckupBody, PatientComment, UpdateCommentBody } from '../../../contract/patient-notes';
import { request } from '../../api/client';
import { nightKeys } from '../night/queries';

export interface Disease {
  disease_id: number;
  disease_description: string;
  disease_shortname: string | null;
}

interface Checkup {
  checkup_date_id: number;
  checkup_date: string;
  mark_as_complete_flag: number;
}

export interface Checkups {
  upcoming: Checkup[];
  past: Checkup[];
}

export type { PatientComment };

const keys = {
  diseases: ['diseases'] as const,
  checkups: (id: number) => ['patient', id, 'checkups'] as const,
  comments: (id: number) => ['patient', id, 'comments'] as const,
};

export function useDiseases() {
  return useQuery({
    queryKey: keys.diseases,
    queryFn: async () => (await request<{ diseases: Disease[] }>('POST', '/patient/get-disease-list', {})).data?.diseases ?? [],
    staleTime: Infinity,
  });
}

/** Adds (update) or removes (delete) a condition; the patient's details follow. */
export function useConditionChange(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ type, diseaseId }: { type: 'update' | 'delete'; diseaseId: number }) =>
      request('POST', '/patient/disease-operation', { patient_id: patientId, type, disease_id: diseaseId }),
    onSuccess: () => client.invalidateQueries({ queryKey: nightKeys.details(patientId) }),
  });
}

export function useCheckups(patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.checkups(patientId),
    queryFn: async () => (await request<Checkups>('POST', '/patient/get-checkup-list', { patient_id: patientId })).data ?? { upcoming: [], past: [] },
    enabled,
  });
}

export function useCheckupChange(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { add: string } | { toggle: number }) =>
      'add' in change
        ? request<Checkups>('POST', '/patient/add-checkup', { patient_id: patientId, checkup_date: change.add } satisfies AddCheckupBody)
        : request<Checkups>('POST', '/patient/mark-as-complete', { patient_id: patientId, checkup_date_id: change.toggle } satisfies MarkCheckupBody),
    onSuccess: (res) => {
      if (res.data) client.setQueryData(keys.checkups(patientId), res.data);
    },
  });
}

export function useComments(patientId: number) {
  return useQuery({
    queryKey: keys.comments(patientId),
    queryFn: async () => (await request<{ comments: PatientComment[] }>('POST', '/patient/get-comment', { id: patientId })).data?.comments ?? [],
  });
}

export type CommentChange =
  | { kind: 'add'; comment: string }
  | { kind: 'update'; id: number; comment: string; updatedDate: string }
  | { kind: 'delete'; id: number };

export function useCommentChange(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: CommentChange) => {
      if (change.kind === 'add') return request('POST', '/patient/add-comment', { user_id: patientId, comment: change.comment } satisfies AddCommentBody);
      if (change.kind === 'update') {
        return request('POST', '/patient/update-comment', { user_id: patientId, id: change.id, comment: change.comment, updated_date: change.updatedDate } satisfies UpdateCommentBody);
      }
      return request('POST', '/patient/delete-comment', { user_id: patientId, id: change.id } satisfies DeleteCommentBody);
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.comments(patientId) }),
  });
}
