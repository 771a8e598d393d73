import type { ReactNode } from 'react';

interface AlertProps {
  tone: 'error' | 'info' | 'success';
  children: ReactNode;
  testId?: string;
}

/** A message box; errors are announced immediately, others politely. */
export function Alert({ tone, children, testId }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
