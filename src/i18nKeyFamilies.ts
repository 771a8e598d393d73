/**
 * The one allow-list of key families looked up with a value known only at run time
 * (`t(\`night.channels.${code}\`)`): a server status, a channel code, an enum. Every key
 * under a family counts as used; a template key whose prefix is not listed here fails
 * tests/unit/i18n.test.ts, and so does a family without keys. Add a value's key to every
 * locale when the server or an enum gains a value.
 */
export const DYNAMIC_KEY_FAMILIES = [
  'annotations.show',
  'annotations.units',
  'dashboard.account',
  'dashboard.greeting',
  'dashboard.system',
  'dashboard.triage.levels',
  'details.checkups',
  'details.questionnaires.choices',
  'details.questionnaires.questions',
  'errors.codes',
  'languages',
  'live.config.status',
  'live.config.statusWord',
  'live.dashboard.alert',
  'live.dashboard.presence',
  'live.errors',
  'live.state',
  'night.channels',
  'night.corrections.status',
  'night.info',
  'night.tabs',
  'patientAdmin.bmiClass',
  'patientAdmin.dataCenter.status',
  'patientAdmin.errors',
  'patientAdmin.list',
  'patientAdmin.password',
  'patientAdmin.requests.status',
  'patientAdmin.screening',
  'patientAdmin.vitals',
  'patients.gender',
  'patients.risk',
  'placeholder',
  'practice.billing.features',
  'practice.billing.memberships',
  'practice.calendar.kinds',
  'profile.errors',
  'profile.rii',
  'profile.specialisationNames',
  'reports.status',
  'reports.steps',
  'reports.types',
  'static',
  'summary.agreement.basis',
  'trend.actigraph.legend',
  'trend.channels',
  'trend.durations',
  'trend.errors',
  'validation.server',
] as const;

export type DynamicKeyFamily = (typeof DYNAMIC_KEY_FAMILIES)[number];
