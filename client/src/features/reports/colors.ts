/** Licence status colours, matching the Licenses screen's badges. */
export function statusColor(status: string): string {
  switch (status) {
    case 'Active':
      return 'green';
    case 'Expired':
      return 'red';
    case 'Suspended':
      return 'orange';
    case 'Pending Renewal':
      return 'yellow';
    default:
      return 'gray';
  }
}
