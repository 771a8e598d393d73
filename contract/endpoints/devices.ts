/** The routes of this part of the API and their schemas (contract/api.ts). */
export const devicesEndpoints = {};
