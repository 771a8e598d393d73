import type { ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { PATHS } from '../../routes';
import { DocumentPage } from './DocumentPage';
import { DocumentsIndex } from './DocumentsIndex';
import { FaqPage } from './FaqPage';

/** Policies, FAQ and reference documents; anything else renders `fallback`. */
export function StaticRoutes({ fallback }: { fallback: ReactNode }) {
  return (
    <Switch>
      <Route path={PATHS.privacy}>
        <DocumentPage id="privacy" />
      </Route>
      <Route path={PATHS.terms}>
        <DocumentPage id="terms" />
      </Route>
      <Route path={PATHS.faq} component={FaqPage} />
      <Route path={PATHS.documents} component={DocumentsIndex} />
      <Route path={PATHS.deviceInstructions}>
        <DocumentPage id="deviceInstructions" />
      </Route>
      <Route path={PATHS.userManual}>
        <DocumentPage id="userManual" />
      </Route>
      <Route path={PATHS.patientSheet}>
        <DocumentPage id="patientSheet" />
      </Route>
      <Route>{fallback}</Route>
    </Switch>
  );
}
