#!/usr/bin/perl
# Times Statistics::Contingency's add_result over single-label results, inside Perl.
#
# Usage: perl perl_add_result.pl DATA_FILE
# DATA_FILE: the categories on the first line, then one result per line,
# "assigned<TAB>correct", all separated by tabs. The file is read and the
# accumulator built before the clock starts, so process start-up, module
# loading and reading are not timed: only the add_result loop is.
# Prints "SECONDS MICRO_F1" (micro F1 with %.17g, for the suite's check).
use strict;
use warnings;

use Statistics::Contingency;
use Time::HiRes qw(time);

my $path = shift @ARGV or die "usage: $0 DATA_FILE\n";
open my $in, '<', $path or die "cannot read $path: $!\n";
chomp(my $header = <$in>);
my @categories = split /\t/, $header;
my (@assigned, @correct);
while (my $line = <$in>) {
  chomp $line;
  my ($assigned_label, $correct_label) = split /\t/, $line;
  push @assigned, $assigned_label;
  push @correct, $correct_label;
}
close $in;

my $s = Statistics::Contingency->new(categories => \@categories);
my $n = scalar @assigned;
my $start = time;
for my $i (0 .. $n - 1) {
  $s->add_result($assigned[$i], $correct[$i]);
}
my $elapsed = time - $start;
printf "%.9f %.17g\n", $elapsed, $s->micro_F1;
