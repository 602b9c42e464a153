import { Tabs } from '@mantine/core';
import { IconCertificate, IconSchool } from '@tabler/icons-react';
import { COMPLETION_STRINGS, COURSE_STRINGS } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { useUrlState } from '../../lib/use-url-state.ts';
import { CoursesTab } from './courses-tab.tsx';
import { CompletionsTab } from './completions-tab.tsx';

/** Course Management (docs/product.md) with the CE completions tab (docs/decisions.md). The tab is kept in the URL. */
export function CoursesPage() {
  const [state, setState] = useUrlState({ tab: 'courses' });
  const tab = state.tab === 'completions' ? 'completions' : 'courses';
  return (
    <>
      <PageHeader title={COURSE_STRINGS.title} />
      <Tabs value={tab} onChange={(v) => setState({ tab: v ?? 'courses' })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="courses" leftSection={<IconSchool size={16} />}>
            Courses
          </Tabs.Tab>
          <Tabs.Tab value="completions" leftSection={<IconCertificate size={16} />}>
            {COMPLETION_STRINGS.tab}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="courses">
          <CoursesTab />
        </Tabs.Panel>
        <Tabs.Panel value="completions">
          <CompletionsTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
