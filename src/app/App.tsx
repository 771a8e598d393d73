import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../api/queryClient';
import { Routes } from './Routes';

/** Providers around the routes; nothing here renders on its own. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Routes />
    </QueryClientProvider>
  );
}
