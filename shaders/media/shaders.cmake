# Participating media (src/media/): the noise tile's bake and the froxel fog's passes.
mote_shader(NAME media/noise_bake SOURCE media/noise_bake.comp)
mote_shader(NAME media/froxel_inject SOURCE media/froxel_inject.comp)
mote_shader(NAME media/froxel_inject_counted SOURCE media/froxel_inject.comp DEFINES MEDIA_COUNT_TAPS=1)
mote_shader(NAME media/froxel_light SOURCE media/froxel_light.comp)
mote_shader(NAME media/froxel_integrate SOURCE media/froxel_integrate.comp)
mote_shader(NAME media/froxel_composite SOURCE media/froxel_composite.comp)
mote_shader(NAME media/froxel_irradiance SOURCE media/froxel_irradiance.comp)
