#!/usr/bin/perl
# Runs scenarios through the real Statistics::Contingency module.
#
# Reads a JSON array of scenarios on STDIN and writes a JSON array of results
# on STDOUT (one per scenario, same order, canonical key order). See
# generate.py / README.md in this directory for the scenario format.
#
# Output: {"perl_version": ..., "module_version": ..., "results": [...]}
# where each result has n_results, micro, macro, category_stats, stats_table.
# Floats are rendered with sprintf("%.17g") so that they round-trip exactly.
use strict;
use warnings;

use JSON::PP ();
use Statistics::Contingency;

my @METRICS = qw(accuracy error precision recall F1);

sub fmt { sprintf('%.17g', $_[0]) }

# Trim " at FILE line N." (and anything like ", <STDIN> line 1.") from a die message.
sub clean_error {
  my $msg = shift;
  $msg =~ s/\s+\z//;
  $msg =~ s/ at \S+ line \d+(?:, <[^>]*> (?:line|chunk) \d+)?\.\z//;
  return $msg;
}

# Convert a scenario category-list argument into what add_result() receives.
sub convert_arg {
  my $x = shift;
  return $x unless ref $x;                          # single string
  return [@$x] if ref $x eq 'ARRAY';                # list of names
  if (ref $x eq 'HASH' and exists $x->{hash} and keys %$x == 1) {
    my %h = %{ $x->{hash} };                          # values keep Perl truthiness
    return \%h;
  }
  die "Bad category argument in scenario\n";
}

my $json = JSON::PP->new->utf8->canonical;
my $input = do { local $/; <STDIN> };
my $scenarios = $json->decode($input);

my @results;
for my $sc (@$scenarios) {
  my $cats = exists $sc->{categories_hash}
    ? { %{ $sc->{categories_hash} } }
    : [ @{ $sc->{categories} } ];
  my $s = Statistics::Contingency->new(categories => $cats);

  for my $step (@{ $sc->{steps} }) {
    my ($op, @args) = @$step;
    if ($op eq 'add') {
      die "add takes 2 arguments\n" unless @args == 2;
      $s->add_result(convert_arg($args[0]), convert_arg($args[1]));
    } elsif ($op eq 'set_entries') {
      die "set_entries takes 4 arguments\n" unless @args == 4;
      $s->set_entries(map { 0 + $_ } @args);
    } else {
      die "Unknown step '$op'\n";
    }
  }

  my %r;
  $r{id} = $sc->{id};
  $r{n_results} = 0 + ($s->{hypotheses} || 0);

  my %micro = map { ($_ => 0 + $s->{$_}) } qw(a b c d);
  for my $m (@METRICS) {
    my $method = "micro_$m";
    $micro{$m} = fmt($s->$method);
  }
  $r{micro} = \%micro;

  my %macro;
  eval {
    for my $m (@METRICS) {
      my $method = "macro_$m";
      $macro{$m} = fmt($s->$method);
    }
    1;
  } or %macro = (error_message => clean_error($@));
  $r{macro} = \%macro;

  my $cs;
  eval {
    my $stats = $s->category_stats;
    for my $cat (keys %$stats) {
      my $h = $stats->{$cat};
      $cs->{$cat} = {
        (map { ($_ => 0 + $h->{$_}) } qw(a b c d)),
        (map { ($_ => fmt($h->{$_})) } @METRICS),
      };
    }
    $cs ||= {};
    1;
  } or $cs = { error_message => clean_error($@) };
  $r{category_stats} = $cs;

  my %table;
  my $table_error;
  for my $figs (@{ $sc->{figs} }) {
    my $t = eval { $s->stats_table(0 + $figs) };
    if (!defined $t) {
      $table_error = clean_error($@);
      last;
    }
    $table{"" . (0 + $figs)} = $t;
  }
  $r{stats_table} = defined $table_error ? { error_message => $table_error } : \%table;

  push @results, \%r;
}

print $json->encode({
  perl_version   => "$^V",
  module_version => "$Statistics::Contingency::VERSION",
  results        => \@results,
});
