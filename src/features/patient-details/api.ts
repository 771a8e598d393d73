// Calls of the Patient details tab (spec 2 §7): conditions, check-ups, comments.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientComment } from '../../../contract/patient-notes';
import { call } from '../../api/client';
import { nightKeys } from '../night/queries';

export type { PatientComment };

const keys = {
  diseases: ['diseases'] as const,
  checkups: (id: number) => ['patient', id, 'checkups'] as const,
  comments: (id: number) => ['patient', id, 'comments'] as const,
};

export function useDiseases() {
  return useQuery({
    queryKey: keys.diseases,
    queryFn: async () => (await call('POST /patient/get-disease-list')).data.diseases,
    staleTime: Infinity,
  });
}

/** Adds (update) or removes (delete) a condition; the patient's details follow. */
export function useConditionChange(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ type, diseaseId }: { type: 'update' | 'delete'; diseaseId: number }) =>
      call('POST /patient/disease-operation', { body: { patient_id: patientId, type, disease_id: diseaseId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: nightKeys.details(patientId) }),
  });
}

export function useCheckups(patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.checkups(patientId),
    queryFn: async () => (await call('POST /patient/get-checkup-list', { body: { patient_id: patientId } })).data,
    enabled,
  });
}

export function useCheckupChange(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { add: string } | { toggle: number }) =>
      'add' in change
        ? call('POST /patient/add-checkup', { body: { patient_id: patientId, checkup_date: change.add } })
        : call('POST /patient/mark-as-complete', { body: { patient_id: patientId, checkup_date_id: change.toggle } }),
    onSuccess: (res) => client.setQueryData(keys.checkups(patientId), res.data),
  });
}

export function useComments(patientId: number) {
  return useQuery({
    queryKey: keys.comments(patientId),
    queryFn: async () => (await call('POST /patient/get-comment', { body: { id: patientId } })).data.comments,
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
      if (change.kind === 'add') return call('POST /patient/add-comment', { body: { user_id: patientId, comment: change.comment } });
      if (change.kind === 'update') {
        return call('POST /patient/update-comment', { body: { user_id: patientId, id: change.id, comment: change.comment, updated_date: change.updatedDate } });
      }
      return call('POST /patient/delete-comment', { body: { user_id: patientId, id: change.id } });
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.comments(patientId) }),
  });
}
