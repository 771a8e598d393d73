import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { STORAGE } from '../config';
import { writeItem } from '../state/storage';

/** Replaces the location, first remembering where the visitor wanted to go. */
export function GuardRedirect({ to, remember }: { to: string; remember?: string }) {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (remember) writeItem('sessionStorage', STORAGE.origin, remember);
    navigate(to, { replace: true });
  }, [to, remember, navigate]);
  return null;
}
