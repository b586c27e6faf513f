import { describe, expect, it } from 'vitest';
import type { AlertType } from '../../src/domain/alert-state.js';
import { incidentAutomationStep, type OpenIncident } from '../../src/domain/incident-automation.js';

const trigger = { serviceId: 's', name: 'API down', description: 'The API fails its checks', severity: 'CRITICAL', notifySubscribers: true };
const open = (lastUpdateStatus: OpenIncident['lastUpdateStatus']): OpenIncident => ({ lastUpdateStatus });

describe('incident automation', () => {
  it.each<[string, AlertType[], OpenIncident | null, string | null, string | null]>([
    ['a failure opens an incident', ['ALERT_FAILURE'], null, 'open', 'INVESTIGATING'],
    ['a degraded check that fails opens one', ['ALERT_DEGRADED_FAILURE'], null, 'open', 'INVESTIGATING'],
    ['a failure while one is open appends to it, keeping its status', ['ALERT_FAILURE'], open('IDENTIFIED'), 'append', 'IDENTIFIED'],
    ['a failure after a manual resolution opens a new one', ['ALERT_FAILURE'], open('RESOLVED'), 'open', 'INVESTIGATING'],
    ['a recovery resolves the open one', ['ALERT_RECOVERY'], open('INVESTIGATING'), 'resolve', 'RESOLVED'],
    ['a recovery from degradation resolves the open one', ['ALERT_DEGRADED_RECOVERY'], open('MONITORING'), 'resolve', 'RESOLVED'],
    ['a failing check that only degrades moves the open one to MONITORING', ['ALERT_FAILURE_DEGRADED'], open('INVESTIGATING'), 'append', 'MONITORING'],
    ['a recovery without an open incident does nothing', ['ALERT_RECOVERY'], null, null, null],
    ['a recovery after a manual resolution does nothing', ['ALERT_RECOVERY'], open('RESOLVED'), null, null],
    ['a degradation alone does nothing', ['ALERT_DEGRADED'], null, null, null],
    ['failures reaching a threshold above one open one', ['ALERT_FAILURE_REMAIN'], null, 'open', 'INVESTIGATING'],
    ['a degradation while one is open changes nothing', ['ALERT_DEGRADED'], open('INVESTIGATING'), null, null],
    ['a certificate alert does nothing', ['ALERT_SSL'], null, null, null],
  ])('%s', (_name, alerts, current, kind, status) => {
    const step = incidentAutomationStep(trigger, alerts, current, 'Checkout');
    expect(step?.kind ?? null).toBe(kind);
    expect(step?.status ?? null).toBe(status);
  });

  it('opens with the trigger\'s name, severity and description, defaulting severity to MAJOR and the description to the check', () => {
    expect(incidentAutomationStep(trigger, ['ALERT_FAILURE'], null, 'Checkout')).toEqual({
      kind: 'open', name: 'API down', severity: 'CRITICAL', status: 'INVESTIGATING', description: 'The API fails its checks',
    });
    expect(incidentAutomationStep({ serviceId: 's', name: 'Down' }, ['ALERT_FAILURE'], null, 'Checkout')).toEqual({
      kind: 'open', name: 'Down', severity: 'MAJOR', status: 'INVESTIGATING', description: 'Checkout is failing.',
    });
  });
});
