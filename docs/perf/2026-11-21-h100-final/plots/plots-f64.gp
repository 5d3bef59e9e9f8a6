# gnuplot script written by spmvlab report; run: gnuplot /work/main/docs/perf/2026-11-21-h100-final/plots/plots-f64.gp
set encoding utf8
set termoption noenhanced
set grid
set key outside right top
set terminal svg size 1000,640 dynamic font 'sans,12' background rgb 'white'
set output '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.svg'
set title 'NVIDIA H100 80GB HBM3: performance profile (f64)'
set xlabel 'tau (time / fastest time)'
set ylabel 'fraction of matrices within tau'
set logscale x 2
set xrange [1:16]
set xtics (1, 1.1, 1.25, 1.5, 2, 3, 4, 8, 16)
set yrange [0:1.02]
plot '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:2 with steps lw 2 title 'cusparse', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:3 with steps lw 2 title 'csr', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:4 with steps lw 2 title 'coo', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:5 with steps lw 2 title 'ell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:6 with steps lw 2 title 'hyb', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:7 with steps lw 2 title 'jds', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:8 with steps lw 2 title 'sell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:9 with steps lw 2 title 'csr5', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:10 with steps lw 2 title 'dasp'
unset output
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1000,640 font 'sans,10' background rgb 'white' } else { set terminal png size 1000,640 }
set output '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.png'
set title 'NVIDIA H100 80GB HBM3: performance profile (f64)'
set xlabel 'tau (time / fastest time)'
set ylabel 'fraction of matrices within tau'
set logscale x 2
set xrange [1:16]
set xtics (1, 1.1, 1.25, 1.5, 2, 3, 4, 8, 16)
set yrange [0:1.02]
plot '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:2 with steps lw 2 title 'cusparse', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:3 with steps lw 2 title 'csr', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:4 with steps lw 2 title 'coo', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:5 with steps lw 2 title 'ell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:6 with steps lw 2 title 'hyb', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:7 with steps lw 2 title 'jds', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:8 with steps lw 2 title 'sell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:9 with steps lw 2 title 'csr5', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/profile-f64.dat' using 1:10 with steps lw 2 title 'dasp'
unset output
unset logscale
set autoscale
set xtics autofreq
set terminal svg size 1000,640 dynamic font 'sans,12' background rgb 'white'
set output '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.svg'
set title 'NVIDIA H100 80GB HBM3: GFLOP/s against non-zeros (f64)'
set xlabel 'non-zeros'
set ylabel 'GFLOP/s'
set logscale x 10
set yrange [0:*]
plot '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 0 using 1:2 with linespoints pt 7 ps 0.8 title 'cusparse', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 1 using 1:2 with linespoints pt 7 ps 0.8 title 'csr', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 2 using 1:2 with linespoints pt 7 ps 0.8 title 'coo', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 3 using 1:2 with linespoints pt 7 ps 0.8 title 'ell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 4 using 1:2 with linespoints pt 7 ps 0.8 title 'hyb', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 5 using 1:2 with linespoints pt 7 ps 0.8 title 'jds', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 6 using 1:2 with linespoints pt 7 ps 0.8 title 'sell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 7 using 1:2 with linespoints pt 7 ps 0.8 title 'csr5', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 8 using 1:2 with linespoints pt 7 ps 0.8 title 'dasp'
unset output
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1000,640 font 'sans,10' background rgb 'white' } else { set terminal png size 1000,640 }
set output '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.png'
set title 'NVIDIA H100 80GB HBM3: GFLOP/s against non-zeros (f64)'
set xlabel 'non-zeros'
set ylabel 'GFLOP/s'
set logscale x 10
set yrange [0:*]
plot '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 0 using 1:2 with linespoints pt 7 ps 0.8 title 'cusparse', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 1 using 1:2 with linespoints pt 7 ps 0.8 title 'csr', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 2 using 1:2 with linespoints pt 7 ps 0.8 title 'coo', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 3 using 1:2 with linespoints pt 7 ps 0.8 title 'ell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 4 using 1:2 with linespoints pt 7 ps 0.8 title 'hyb', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 5 using 1:2 with linespoints pt 7 ps 0.8 title 'jds', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 6 using 1:2 with linespoints pt 7 ps 0.8 title 'sell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 7 using 1:2 with linespoints pt 7 ps 0.8 title 'csr5', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/gflops-f64.dat' index 8 using 1:2 with linespoints pt 7 ps 0.8 title 'dasp'
unset output
unset logscale
set autoscale
set terminal svg size 1000,640 dynamic font 'sans,12' background rgb 'white'
set output '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.svg'
set title 'NVIDIA H100 80GB HBM3: speedup over cusparse per matrix (f64), 95% intervals'
set xlabel ''
set ylabel 'speedup (baseline time / time)'
set logscale y 2
set xrange [-0.5:33.5]
set xtics rotate by -45 font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black'
plot '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.2625):6:7:8:xtic(2) with yerrorbars pt 7 ps 0.7 title 'csr', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.1875):9:10:11 with yerrorbars pt 7 ps 0.7 title 'coo', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.1125):12:13:14 with yerrorbars pt 7 ps 0.7 title 'ell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.0375):15:16:17 with yerrorbars pt 7 ps 0.7 title 'hyb', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.0375):18:19:20 with yerrorbars pt 7 ps 0.7 title 'jds', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.1125):21:22:23 with yerrorbars pt 7 ps 0.7 title 'sell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.1875):24:25:26 with yerrorbars pt 7 ps 0.7 title 'csr5', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.2625):27:28:29 with yerrorbars pt 7 ps 0.7 title 'dasp'
unset output
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1000,640 font 'sans,10' background rgb 'white' } else { set terminal png size 1000,640 }
set output '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.png'
set title 'NVIDIA H100 80GB HBM3: speedup over cusparse per matrix (f64), 95% intervals'
set xlabel ''
set ylabel 'speedup (baseline time / time)'
set logscale y 2
set xrange [-0.5:33.5]
set xtics rotate by -45 font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black'
plot '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.2625):6:7:8:xtic(2) with yerrorbars pt 7 ps 0.7 title 'csr', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.1875):9:10:11 with yerrorbars pt 7 ps 0.7 title 'coo', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.1125):12:13:14 with yerrorbars pt 7 ps 0.7 title 'ell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+-0.0375):15:16:17 with yerrorbars pt 7 ps 0.7 title 'hyb', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.0375):18:19:20 with yerrorbars pt 7 ps 0.7 title 'jds', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.1125):21:22:23 with yerrorbars pt 7 ps 0.7 title 'sell', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.1875):24:25:26 with yerrorbars pt 7 ps 0.7 title 'csr5', \
  '/work/main/docs/perf/2026-11-21-h100-final/plots/speedup-f64.dat' using ($1+0.2625):27:28:29 with yerrorbars pt 7 ps 0.7 title 'dasp'
unset output
unset arrow 1
