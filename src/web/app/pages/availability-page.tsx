import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInUser } from '../../lib/use-auth';
import { availabilityTexts } from '../../features/availability/availability-format';
import { BlackoutDatesCard } from '../../features/availability/components/blackout-dates-card';
import { WeeklyScheduleCard } from '../../features/availability/components/weekly-schedule-card';
import { AppLayout } from '../layouts/app-layout';

/**
 * /availability (docs/rules/screens-buyer.md, Account pages): the weekly schedule and blackout dates of
 * the signed-in user.
 */
export function AvailabilityPage() {
  useDocumentTitle('Availability');
  const user = useSignedInUser();
  const texts = availabilityTexts(user.role);
  return (
    <AppLayout>
      <PageHeading title="Availability" subtitle={texts.subtitle} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <WeeklyScheduleCard description={texts.schedule} />
        <BlackoutDatesCard description={texts.blackouts} />
      </div>
    </AppLayout>
  );
}
