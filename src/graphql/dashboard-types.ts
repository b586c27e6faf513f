/** REST payloads of dashboards as the GraphQL layer receives them (codegen mappers). */
import type { components } from '../contract/__generated__/openapi.js';

/** A dashboard (`/v1/dashboards/{dashboardId}`); its id is `dashboardId`. */
export type RestDashboard = components['schemas']['Dashboard'];
