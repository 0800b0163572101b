import { Clock, ExternalLink, Globe, Mail, MapPin, Phone, type LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { COMPANY } from '@domain/support';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

function Row({ icon: Icon, term, children }: { icon: LucideIcon; term: string; children: ReactNode }) {
  // dt and dd stay direct children of the row's div: that is what a description list allows.
  return (
    <div className="flex flex-col gap-1">
      <dt className="flex items-center gap-3 text-sm font-medium">
        <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <Icon className="size-4" aria-hidden="true" />
        </span>
        {term}
      </dt>
      <dd className="min-w-0 break-words pl-11 text-sm text-muted-foreground">{children}</dd>
    </div>
  );
}

const linkClass =
  'font-medium text-foreground underline underline-offset-4 hover:text-primary focus-visible:rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** The business details shown on the support page (docs/rules/screens-buyer.md, Account pages). */
export function CompanyInfo() {
  const phoneHref = `tel:+1${COMPANY.phone.replace(/\D/g, '')}`;
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2">
          Company Information
        </CardTitle>
        <CardDescription>{COMPANY.name}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-5">
          <Row icon={MapPin} term="Mailing address">
            <address className="not-italic">
              {COMPANY.mailingAddress.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
          </Row>
          <Row icon={Phone} term="Phone">
            <a href={phoneHref} className={linkClass}>
              {COMPANY.phone}
            </a>
          </Row>
          <Row icon={Mail} term="Support email">
            <a href={`mailto:${COMPANY.email}`} className={linkClass}>
              {COMPANY.email}
            </a>
          </Row>
          <Row icon={Globe} term="Website">
            <a
              href={COMPANY.website}
              target="_blank"
              rel="noopener noreferrer"
              className={`${linkClass} inline-flex items-center gap-1`}
            >
              {COMPANY.website.replace(/^https?:\/\//, '')}
              <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Row>
          <Row icon={Clock} term="Support hours">
            {COMPANY.hours}
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}
