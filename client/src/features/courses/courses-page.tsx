import { PageHeader } from '../../components/page-header.tsx';

export function CoursesPage() {
  return <PageHeader title="Course Management" />;
}
