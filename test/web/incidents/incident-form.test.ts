import { describe, expect, it } from 'vitest';
import { EMPTY_INCIDENT_FORM, filterIncidents, INCIDENT_FORM_FIELDS, incidentInput, incidentUpdateInput, label, nextStatus } from '../../../web/src/incidents/incident-form.js';
import { fieldErrors } from '../../../web/src/shared/user-errors.js';

describe('the incident forms', () => {
  it('opens an incident with its first update', () => {
    expect(incidentInput({ ...EMPTY_INCIDENT_FORM, name: ' API down ', services: ['s1'], description: ' Looking into it ' })).toEqual({
      name: 'API down', severity: 'MAJOR', services: ['s1'], updates: [{ description: 'Looking into it', status: 'INVESTIGATING', notifySubscribers: false }],
    });
  });

  it('puts the first update\'s errors on its fields and a service\'s on the services', () => {
    const found = fieldErrors([
      { field: 'updates.0.description', code: 'BAD_USER_INPUT', message: 'required' },
      { field: 'services.1', code: 'NOT_FOUND', message: 'unknown service' },
    ], INCIDENT_FORM_FIELDS);
    expect(found.byField).toEqual({ 'updates.0.description': ['required'], services: ['unknown service'] });
  });

  it('posts an update keeping the status when none is picked', () => {
    expect(incidentUpdateInput({ description: ' Fixed ', status: '', notifySubscribers: true })).toEqual({ description: 'Fixed', notifySubscribers: true });
    expect(incidentUpdateInput({ description: 'x', status: 'RESOLVED', notifySubscribers: false })).toEqual({ description: 'x', status: 'RESOLVED', notifySubscribers: false });
  });

  it('suggests the next status and says statuses plainly', () => {
    expect(nextStatus('INVESTIGATING')).toBe('IDENTIFIED');
    expect(nextStatus('RESOLVED')).toBe('RESOLVED');
    expect(label('MONITORING')).toBe('Monitoring');
  });

  it('filters incidents by service and state', () => {
    const incidents = [
      { id: 'a', open: true, services: [{ id: 's1' }] },
      { id: 'b', open: false, services: [{ id: 's1' }, { id: 's2' }] },
      { id: 'c', open: true, services: [{ id: 's3' }] },
    ];
    expect(filterIncidents(incidents, { state: 'open' }).map((i) => i.id)).toEqual(['a', 'c']);
    expect(filterIncidents(incidents, { state: 'all', services: ['s2'] }).map((i) => i.id)).toEqual(['b']);
    expect(filterIncidents(incidents, { state: 'resolved', services: ['s1', 's3'] }).map((i) => i.id)).toEqual(['b']);
    expect(filterIncidents(incidents, { state: 'open', services: [] })).toEqual([]);
  });
});
