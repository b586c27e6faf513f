import { describe, expect, it } from 'vitest';
import { pageState, serviceState, type ServiceIncident, type ServiceMaintenance } from '../../src/domain/service-state.js';

const open = (severity: ServiceIncident['severity']): ServiceIncident => ({ severity, lastUpdateStatus: 'INVESTIGATING' });
const maintenance = (status: ServiceMaintenance['status']): ServiceMaintenance => ({ status });

describe('service state', () => {
  it.each([
    { name: 'a service without incidents or maintenance is operational', incidents: [], maintenances: [], state: 'OPERATIONAL' },
    { name: 'an open minor incident makes a service degraded', incidents: [open('MINOR')], maintenances: [], state: 'DEGRADED' },
    { name: 'an open medium incident makes a service partially out', incidents: [open('MEDIUM')], maintenances: [], state: 'PARTIAL_OUTAGE' },
    { name: 'an open major incident makes a service majorly out', incidents: [open('MAJOR')], maintenances: [], state: 'MAJOR_OUTAGE' },
    { name: 'an open critical incident makes a service majorly out', incidents: [open('CRITICAL')], maintenances: [], state: 'MAJOR_OUTAGE' },
    { name: 'an identified incident is still open', incidents: [{ severity: 'MEDIUM', lastUpdateStatus: 'IDENTIFIED' }], maintenances: [], state: 'PARTIAL_OUTAGE' },
    { name: 'a monitored incident is still open', incidents: [{ severity: 'MINOR', lastUpdateStatus: 'MONITORING' }], maintenances: [], state: 'DEGRADED' },
    { name: 'a resolved incident leaves a service operational', incidents: [{ severity: 'CRITICAL', lastUpdateStatus: 'RESOLVED' }], maintenances: [], state: 'OPERATIONAL' },
    { name: 'the worst open incident decides', incidents: [open('MINOR'), open('MAJOR'), open('MEDIUM')], maintenances: [], state: 'MAJOR_OUTAGE' },
    { name: 'a maintenance in progress puts a service under maintenance', incidents: [], maintenances: [maintenance('IN_PROGRESS')], state: 'UNDER_MAINTENANCE' },
    { name: 'a maintenance being verified puts a service under maintenance', incidents: [], maintenances: [maintenance('VERIFYING')], state: 'UNDER_MAINTENANCE' },
    { name: 'a scheduled maintenance leaves a service operational', incidents: [], maintenances: [maintenance('SCHEDULED')], state: 'OPERATIONAL' },
    { name: 'a completed maintenance leaves a service operational', incidents: [], maintenances: [maintenance('COMPLETED')], state: 'OPERATIONAL' },
    { name: 'a cancelled maintenance leaves a service operational', incidents: [], maintenances: [maintenance('CANCELLED')], state: 'OPERATIONAL' },
    { name: 'an open minor incident wins over a maintenance in progress', incidents: [open('MINOR')], maintenances: [maintenance('IN_PROGRESS')], state: 'DEGRADED' },
    { name: 'an open critical incident wins over a maintenance in progress', incidents: [open('CRITICAL')], maintenances: [maintenance('IN_PROGRESS')], state: 'MAJOR_OUTAGE' },
    { name: 'a resolved incident during maintenance leaves the service under maintenance', incidents: [{ severity: 'MAJOR', lastUpdateStatus: 'RESOLVED' }], maintenances: [maintenance('IN_PROGRESS')], state: 'UNDER_MAINTENANCE' },
  ] as const)('$name', ({ incidents, maintenances, state }) => {
    expect(serviceState(incidents, maintenances)).toBe(state);
  });
});

describe('page state', () => {
  it.each([
    { name: 'a page without services is operational', states: [], state: 'OPERATIONAL' },
    { name: 'a page of operational services is operational', states: ['OPERATIONAL', 'OPERATIONAL'], state: 'OPERATIONAL' },
    { name: 'maintenance is worse than operational', states: ['OPERATIONAL', 'UNDER_MAINTENANCE'], state: 'UNDER_MAINTENANCE' },
    { name: 'degraded is worse than maintenance', states: ['UNDER_MAINTENANCE', 'DEGRADED', 'OPERATIONAL'], state: 'DEGRADED' },
    { name: 'a partial outage is worse than degraded', states: ['DEGRADED', 'PARTIAL_OUTAGE'], state: 'PARTIAL_OUTAGE' },
    { name: 'a major outage is the worst', states: ['MAJOR_OUTAGE', 'PARTIAL_OUTAGE', 'UNDER_MAINTENANCE'], state: 'MAJOR_OUTAGE' },
  ] as const)('$name', ({ states, state }) => {
    expect(pageState(states)).toBe(state);
  });
});
