import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LOCATIONS } from '../../src/domain/catalog.js';
import { addressesByRegion, sourceAddresses, type InterfaceTable } from '../../src/domain/source-addresses.js';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;

const machine: InterfaceTable = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('203.0.113.9', 'IPv4'), nic('2001:db8::9', 'IPv6'), nic('fe80::1%eth0', 'IPv6')],
  eth1: [nic('10.0.0.4', 'IPv4'), nic('169.254.10.1', 'IPv4'), nic('203.0.113.9', 'IPv4')],
  down: undefined,
};

describe('source addresses of check runs', () => {
  it('takes the non-internal, non-link-local interface addresses of the machine when nothing is configured', () => {
    expect(sourceAddresses('IPv4', undefined, machine)).toEqual(['10.0.0.4', '203.0.113.9']);
    expect(sourceAddresses('IPv6', undefined, machine)).toEqual(['2001:db8::9']);
  });

  it('prefers configured addresses over the interfaces, sorted and without duplicates', () => {
    expect(sourceAddresses('IPv4', ['198.51.100.2', '192.0.2.1', '198.51.100.2'], machine)).toEqual(['192.0.2.1', '198.51.100.2']);
  });

  it('drops configured entries of the other family or that are no address at all', () => {
    expect(sourceAddresses('IPv4', ['192.0.2.1', '2001:db8::1', 'example.com'], machine)).toEqual(['192.0.2.1']);
    expect(sourceAddresses('IPv6', ['192.0.2.1', ' 2001:db8::1 '], machine)).toEqual(['2001:db8::1']);
  });

  it('treats an empty configuration like no configuration', () => {
    expect(sourceAddresses('IPv4', [], machine)).toEqual(['10.0.0.4', '203.0.113.9']);
  });

  it('answers an empty list for a machine without external interfaces', () => {
    expect(sourceAddresses('IPv6', undefined, { lo: [nic('::1', 'IPv6', true)] })).toEqual([]);
  });

  it('maps every location to the same list, because every location runs on this machine', () => {
    const byRegion = addressesByRegion(['192.0.2.1']);
    expect(Object.keys(byRegion)).toEqual([...LOCATIONS]);
    for (const list of Object.values(byRegion)) expect(list).toEqual(['192.0.2.1']);
  });
});
