import { Tabs } from '@mantine/core';
import { IconCertificate, IconSchool } from '@tabler/icons-react';
import { COMPLETION_STRINGS, COURSE_STRINGS } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { useSearchParams } from 'react-router';
import { CoursesTab } from './courses-tab.tsx';
import { CompletionsTab } from './completions-tab.tsx';

/**
 * Course Management (docs/product.md) with the CE completions tab (docs/decisions.md). The tab is kept in the
 * URL; switching tabs starts the other list afresh (its own page, sort and filters).
 */
export function CoursesPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'completions' ? 'completions' : 'courses';
  return (
    <>
      <PageHeader title={COURSE_STRINGS.title} />
      <Tabs value={tab} onChange={(v) => setParams(v === 'completions' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
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
