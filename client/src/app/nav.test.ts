import { describe, expect, it } from 'vitest';
import { navFor } from './nav.ts';

describe('sidebar entries per role (docs/product.md section 2)', () => {
  it('shows all 15 to an Admin (the 13 of the spec, CE Rules and Integrations) and the right subset to others', () => {
    expect(navFor('Admin')).toHaveLength(15);
    expect(navFor('Admin').map((e) => e.label)).toContain('Integrations');
    expect(navFor('Admin').map((e) => e.label)).toContain('CE Rules');
    expect(navFor('Agent').map((e) => e.label)).toEqual(['Dashboard', 'Licenses', 'Courses', 'Payments', 'Documents', 'Notifications']);
    expect(navFor('Broker').map((e) => e.label)).toEqual([
      'Dashboard',
      'Users',
      'Licenses',
      'Courses',
      'Payments',
      'Documents',
      'Notifications',
      'Integrations',
    ]);
    expect(navFor('School').map((e) => e.label)).toEqual(['Dashboard', 'Courses', 'Documents', 'Notifications']);
    expect(navFor(null)).toEqual([]);
  });
});
