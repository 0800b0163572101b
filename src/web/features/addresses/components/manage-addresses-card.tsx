import { Link } from 'wouter';
import { MapPin } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

/** The profile's way to the addresses page (docs/rules/screens-buyer.md, Account pages). */
export function ManageAddressesCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Addresses</CardTitle>
        <CardDescription>Your delivery and pickup addresses.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline" className="w-full">
          <Link href="/addresses">
            <MapPin aria-hidden="true" />
            Manage Addresses
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
