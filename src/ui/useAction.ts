import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/messages';

/**
 * A button's write or download as a TanStack mutation: `busy` while it runs, its failure as the
 * text to show in `problem` (in the user's words), cleared when the next one starts. `run`
 * never rejects: a failure is shown, not dropped.
 */
export function useAction() {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onMutate: () => setProblem(null),
    onError: (error) => setProblem(errorText(t, error)),
  });
  return {
    busy: action.isPending,
    problem,
    setProblem,
    run: (work: () => Promise<unknown>) => action.mutate(work),
  };
}
