#!/usr/bin/perl
# Statistics::Contingency's stats tables (figs 1 to 6) for the bundled example
# contingency/examples/news.tsv. Regenerate the golden file with:
#   perl tests/golden/perl/news_example.pl contingency/examples/news.tsv > tests/golden/perl/news_example.txt
use strict;
use warnings;
use Statistics::Contingency;

my (@results, %seen);
open my $file, '<', $ARGV[0] or die "cannot read $ARGV[0]: $!";
while (my $line = <$file>) {
    chomp $line;
    next if $line =~ /^\s*#/ or $line !~ /\S/;
    my ($name, $assigned, $correct) = split /\t/, $line, -1;
    my @sides = map { [grep { length } map { s/^\s+|\s+$//gr } split /,/, $_] } $assigned, $correct;
    $seen{$_} = 1 for map { @$_ } @sides;
    push @results, [@sides, $name];
}
my $s = Statistics::Contingency->new(categories => [sort keys %seen]);
$s->add_result(@$_) for @results;
print $s->stats_table($_) for 1 .. 6;
