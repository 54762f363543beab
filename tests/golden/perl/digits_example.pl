#!/usr/bin/perl
# Statistics::Contingency's stats tables (figs 1 to 6) for the bundled example
# contingency/examples/digits.csv: first the digits (assigned = column "predicted",
# correct = "digit"), then the tags (assigned = "predicted_tags", correct = "tags",
# several tags separated by "|"). Regenerate the golden file with:
#   perl tests/golden/perl/digits_example.pl contingency/examples/digits.csv > tests/golden/perl/digits_example.txt
use strict;
use warnings;
use Statistics::Contingency;

open my $file, '<', $ARGV[0] or die "cannot read $ARGV[0]: $!";
chomp(my $header = <$file>);
my %column;
my @names = split /,/, $header, -1;
@column{@names} = 0 .. $#names;
my @rows;
while (my $line = <$file>) {
    chomp $line;
    push @rows, [split /,/, $line, -1];
}
for my $pair (["predicted", "digit"], ["predicted_tags", "tags"]) {
    my ($assigned, $correct) = map { $column{$_} } @$pair;
    my (@results, %seen);
    for my $row (@rows) {
        my @sides = map { [grep { length } split /\|/, $row->[$_]] } $assigned, $correct;
        $seen{$_} = 1 for map { @$_ } @sides;
        push @results, \@sides;
    }
    my $s = Statistics::Contingency->new(categories => [sort keys %seen]);
    $s->add_result(@$_) for @results;
    print $s->stats_table($_) for 1 .. 6;
}
