import { describe, expect, it } from 'vitest';
import { maintenanceEffects, type ActiveMaintenance } from '../../src/domain/maintenance-effects.js';

const w = (o: Partial<ActiveMaintenance>): ActiveMaintenance => ({
  windowId: 1, maintenanceId: 'm', tags: [], pauseAllChecks: false, silenceAlertsTags: [], silenceAllAlerts: false, suppressAutoIncidents: false, ...o,
});

describe('what maintenance in progress does to a check', () => {
  it.each<[string, ActiveMaintenance[], string[], { paused: boolean; silenced: boolean; suppressAutoIncidents: boolean }]>([
    ['no maintenance', [], ['api'], { paused: false, silenced: false, suppressAutoIncidents: false }],
    ['a window tagged like the check silences it', [w({ tags: ['API'] })], ['api'], { paused: false, silenced: true, suppressAutoIncidents: false }],
    ['a window with other tags does nothing', [w({ tags: ['web'] })], ['api'], { paused: false, silenced: false, suppressAutoIncidents: false }],
    ['silenceAlertsTags silences the checks so tagged', [w({ silenceAlertsTags: ['api'] })], ['api', 'eu'], { paused: false, silenced: true, suppressAutoIncidents: false }],
    ['silenceAllAlerts silences every check', [w({ silenceAllAlerts: true })], [], { paused: false, silenced: true, suppressAutoIncidents: false }],
    ['pauseAllChecks without tags pauses every check', [w({ pauseAllChecks: true })], ['x'], { paused: true, silenced: true, suppressAutoIncidents: false }],
    ['pauseAllChecks with tags pauses those checks', [w({ pauseAllChecks: true, tags: ['api'] })], ['api'], { paused: true, silenced: true, suppressAutoIncidents: false }],
    ['pauseAllChecks with tags silences but does not pause other checks', [w({ pauseAllChecks: true, tags: ['api'] })], ['web'], { paused: false, silenced: true, suppressAutoIncidents: false }],
    ['suppressAutoIncidents applies to the checks it covers', [w({ tags: ['api'], suppressAutoIncidents: true })], ['api'], { paused: false, silenced: true, suppressAutoIncidents: true }],
    ['suppressAutoIncidents of a window not covering the check does nothing', [w({ tags: ['web'], suppressAutoIncidents: true })], ['api'], { paused: false, silenced: false, suppressAutoIncidents: false }],
    ['windows add up', [w({ windowId: 1, silenceAlertsTags: ['api'] }), w({ windowId: 2, pauseAllChecks: true, tags: ['api'] })], ['api'], { paused: true, silenced: true, suppressAutoIncidents: false }],
  ])('%s', (_name, windows, tags, expected) => {
    const effects = maintenanceEffects(windows, tags);
    expect({ paused: effects.paused, silenced: effects.silenced, suppressAutoIncidents: effects.suppressAutoIncidents }).toEqual(expected);
  });

  it('names the windows that cover the check', () => {
    expect(maintenanceEffects([w({ windowId: 7, tags: ['a'] }), w({ windowId: 8, tags: ['b'] }), w({ windowId: 9, silenceAllAlerts: true })], ['a']).windowIds).toEqual([7, 9]);
  });
});
